// autocannon ships no types; this covers the part of its API the bench uses.
declare module "autocannon" {
  type Histogram = {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
    p99_9: number;
  };
  export type RawRequest = { method?: string; path?: string; headers?: Record<string, string>; body?: string | Buffer };
  export type RequestSpec = RawRequest & {
    setupRequest?: (req: RawRequest, context: Record<string, any>) => RawRequest;
    onResponse?: (status: number, body: string, context: Record<string, any>, headers: Record<string, string>) => void;
  };
  export type Options = RawRequest & {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    timeout?: number;
    requests?: RequestSpec[];
    title?: string;
  };
  export type Result = {
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    "2xx": number;
    "4xx": number;
    "5xx": number;
    statusCodeStats: Record<string, { count: number }>;
  };
  type Instance = Promise<Result> & { stop(): void };
  function autocannon(opts: Options): Instance;
  export default autocannon;
}
