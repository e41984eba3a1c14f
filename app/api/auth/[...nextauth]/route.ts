import NextAuth from "next-auth";
import { authOptions } from "@/server/auth/auth-options";

export const dynamic = "force-dynamic";

function handler(req: Request, context: { params: Promise<{ nextauth: string[] }> }) {
  return NextAuth(authOptions())(req, context);
}

export { handler as GET, handler as POST };
