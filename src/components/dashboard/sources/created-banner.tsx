import { Alert } from "@/components/ui/alert";
import { RelativeTime } from "@/components/ui/relative-time";
import type { SourceDetail } from "./types";

/**
 * "Source created", told from the source's state now (D460), not from the moment it was made:
 * gone once a first pass has run (ok or not), and while paused it says so rather than promising
 * a pass. The page re-reads itself while the first pass is due (RefreshWhile).
 */
export function CreatedBanner({ source }: { source: SourceDetail }) {
  if (source.state !== "never_synced" || source.lastSyncedAt !== null) return null;
  let text: React.ReactNode;
  if (source.kind === "csv") text = "Upload a CSV file to fill it.";
  else if (source.pausedAt) text = "It is paused: no pass runs until someone resumes it.";
  else if (source.running) text = "Its first pass is running now.";
  else if (source.nextDueAt)
    text = (
      <>
        Its first pass is due <RelativeTime iso={source.nextDueAt} />.
      </>
    );
  else text = "It syncs only when someone presses “Sync now”.";
  return (
    <Alert tone="success" title="Source created" className="mt-3">
      <span data-testid="created-banner">{text}</span>
    </Alert>
  );
}
