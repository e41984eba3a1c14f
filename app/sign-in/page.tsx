import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/dashboard/sign-in-form";
import { Alert } from "@/components/ui/alert";
import { dashboardCaller } from "@/server/api/dashboard/caller";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in · Groundwork" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const changed = (await searchParams).changed === "1";
  const caller = await dashboardCaller();
  const signedIn = await caller.viewer.me().then(
    () => true,
    () => false,
  );
  if (signedIn) redirect("/dashboard");
  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-50 px-4">
      <div className="w-full max-w-sm">
        <div className="mb-6 text-center">
          <p className="text-sm font-semibold tracking-wide text-blue-700 uppercase">Groundwork</p>
          <h1 className="mt-1 text-2xl font-semibold text-slate-900">Sign in to the dashboard</h1>
        </div>
        {changed ? (
          <div className="mb-4">
            <Alert tone="success" title="Password changed">
              Every session has ended. Sign in with your new password.
            </Alert>
          </div>
        ) : null}
        <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
          <SignInForm />
        </div>
        <p className="mt-4 text-center text-xs text-slate-500">Five wrong passwords from one address lock the account for that address for 15 minutes.</p>
      </div>
    </main>
  );
}
