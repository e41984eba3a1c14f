import { AlertsView } from "@/components/dashboard/alerts/alerts-view";
import { LoadError } from "@/components/dashboard/load-error";
import { env } from "@/env";
import { load } from "@/server/api/dashboard/load";

export const dynamic = "force-dynamic";

export default async function OrganizationAlertsPage({ params }: { params: Promise<{ organizationId: string }> }) {
  const { organizationId } = await params;
  const loaded = await load(async (caller) => {
    const [me, organization, channels, rules, deliveries] = await Promise.all([
      caller.viewer.me(),
      caller.organizations.get({ organizationId }),
      caller.alerts.channels({ organizationId }),
      caller.alerts.rules({ organizationId }),
      caller.alerts.deliveries({ organizationId }),
    ]);
    // Every source, page by page, for the rule form's choice.
    const sources: { id: string; name: string }[] = [];
    let cursor: string | undefined;
    do {
      const page = await caller.sources.list({ organizationId, ...(cursor ? { cursor } : {}) });
      sources.push(...page.items.map((s) => ({ id: s.id, name: s.name })));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    const instanceChannels = me.isInstanceOwner ? await caller.alerts.channels({ organizationId: null }) : [];
    return { organization, channels, rules, deliveries, sources, instanceChannels };
  });
  if (!loaded.ok) return <LoadError {...loaded} />;
  const { organization, channels, rules, deliveries, sources, instanceChannels } = loaded.data;
  return (
    <AlertsView
      organizationId={organizationId}
      channels={channels}
      ruleChannels={[...channels, ...instanceChannels]}
      rules={rules}
      sources={sources}
      deliveries={deliveries}
      canManage={organization.canAdmin}
      smtpConfigured={env().GROUNDWORK_SMTP_URL !== undefined}
    />
  );
}
