import { NextResponse, type NextRequest } from "next/server";
import { rejectMalformedPath } from "@/lib/http/malformed-path";

/** Runs before Next routes a request (Next 16's middleware). */
export function proxy(req: NextRequest) {
  return rejectMalformedPath(req) ?? NextResponse.next();
}

export const config = { matcher: "/api/:path*" };
