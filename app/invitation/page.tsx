import type { Metadata } from "next";
import { InvitationAccept } from "@/components/dashboard/invitation-accept";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Accept an invitation · Groundwork", referrer: "no-referrer" };

/** The invitation link's page (D472): the token is in the URL's fragment, read in the browser only. */
export default function InvitationPage() {
  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-50 px-4 py-8">
      <div className="w-full max-w-md">
        <div className="mb-6 text-center">
          <p className="text-sm font-semibold tracking-wide text-blue-700 uppercase">Groundwork</p>
          <h1 className="mt-1 text-2xl font-semibold text-slate-900">Accept an invitation</h1>
        </div>
        <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
          <InvitationAccept />
        </div>
        <p className="mt-4 text-center text-xs text-slate-600">
          Ten invitation links that do not work from one address pause this page for that address for 15 minutes.
        </p>
      </div>
    </main>
  );
}
