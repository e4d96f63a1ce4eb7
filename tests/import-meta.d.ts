// Vite's import.meta.glob, used by tests/helpers/server.ts to load every route module.
interface ImportMeta {
  glob<T>(pattern: string): Record<string, () => Promise<T>>;
}
