/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native/WASM database drivers must not be bundled: they load files at run time.
  serverExternalPackages: ["@electric-sql/pglite", "postgres"],
  poweredByHeader: false,
  // Every response, pages, assets and API alike, is taken for its declared type only. The pages'
  // CSP and Referrer-Policy come from proxy.ts (per-request nonce); media downloads add a sandbox.
  // The date-range history viewer lived at /conversations, a name the inbox's API
  // (/api/v1/conversations) also uses; old links and bookmarks land on its new name.
  async redirects() {
    return [{ source: "/conversations", destination: "/history", permanent: true }];
  },
  async headers() {
    return [{ source: "/:path*", headers: [{ key: "X-Content-Type-Options", value: "nosniff" }] }];
  },
};

export default nextConfig;
