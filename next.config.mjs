/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native/WASM database drivers must not be bundled: they load files at run time.
  serverExternalPackages: ["@electric-sql/pglite", "postgres"],
  poweredByHeader: false,
  // Every response, pages, assets and API alike, is taken for its declared type only. The pages'
  // CSP and Referrer-Policy come from proxy.ts (per-request nonce); media downloads add a sandbox.
  async headers() {
    return [{ source: "/:path*", headers: [{ key: "X-Content-Type-Options", value: "nosniff" }] }];
  },
};

export default nextConfig;
