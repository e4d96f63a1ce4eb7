/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native/WASM database drivers must not be bundled: they load files at run time.
  serverExternalPackages: ["@electric-sql/pglite", "postgres"],
  poweredByHeader: false,
  // The API answers its own 4xx for oversized bodies; keep Next from buffering more than that.
  experimental: {},
};

export default nextConfig;
