import { RefusalPage } from "@/components/dashboard/refusal-page";

// 403 inside an organization the viewer belongs to (D522): under its header, whose h1 names it.
export default function OrganizationSectionForbidden() {
  return (
    <RefusalPage title="You do not have access to this" level={2}>
      <p>Your role in this organization does not open this section. Its admins, and the instance owner, can.</p>
    </RefusalPage>
  );
}
