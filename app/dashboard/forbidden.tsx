import { RefusalPage } from "@/components/dashboard/refusal-page";

// 403 (D522): a page of an organization the viewer is not a member of, or of the instance.
export default function DashboardForbidden() {
  return (
    <RefusalPage title="You do not have access to this">
      <p>Your account cannot open this page: it belongs to an organization you are not a member of, or it needs a role you do not have.</p>
      <p>An admin of the organization, or the instance owner, can give you access.</p>
    </RefusalPage>
  );
}
