import Link from "next/link";
import { Alert } from "@/components/ui/alert";

const titles: Record<string, string> = {
  // A page's inputs are its address: a refused one is a link that cannot work, not an outage.
  bad_request: "This page's address is not valid",
  forbidden: "You do not have access to this",
  not_found: "Not found",
};

/** A page whose data was refused or failed: the reason and the request id, nothing else. */
export function LoadError({ code, message, requestId }: { code: string; message: string; requestId: string }) {
  return (
    <div className="space-y-3">
      <Alert title={titles[code] ?? "Something went wrong"} requestId={requestId}>
        {message}
      </Alert>
      <Link href="/dashboard/organizations" className="inline-block text-sm text-blue-700 underline">
        Back to your organizations
      </Link>
    </div>
  );
}
