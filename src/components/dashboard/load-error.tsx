import Link from "next/link";
import { forbidden, notFound } from "next/navigation";
import { Alert } from "@/components/ui/alert";

const titles: Record<string, string> = {
  // A page's inputs are its address: a refused one is a link that cannot work, not an outage.
  bad_request: "This page's address is not valid",
};

/**
 * A page whose data was refused or failed: the reason and the request id, nothing else. A refusal
 * and a miss are the HTTP answers they are (D522): forbidden() renders the nearest forbidden.tsx
 * with a 403, notFound() the nearest not-found.tsx with a 404.
 */
export function LoadError({ code, message, requestId }: { code: string; message: string; requestId: string }) {
  if (code === "forbidden") forbidden();
  if (code === "not_found") notFound();
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
