import { AlertsView } from "@/components/dashboard/alerts/alerts-view";
import { LoadError } from "@/components/dashboard/load-error";
import { PageHeader } from "@/components/ui/card";
import { env } from "@/env";
import { load } from "@/server/api/dashboard/load";

export const dynamic = "force-dynamic";

export default async function InstanceAlertsPage() {
  const loaded = await load(async (caller) => {
    const [me, channels, deliveries] = await Promise.all([
      caller.viewer.me(),
      caller.alerts.channels({ organizationId: null }),
      caller.alerts.deliveries({ organizationId: null }),
    ]);
    return { me, channels, deliveries };
  });
  if (!loaded.ok) return <LoadError {...loaded} />;
  const { me, channels, deliveries } = loaded.data;
  return (
    <div>
      <PageHeader
        title="Instance alerts"
        description="Channels for the whole instance, set up by instance owners. An owner points any organization's rules at them from that organization's Alerts tab."
      />
      <AlertsView
        organizationId={null}
        channels={channels}
        ruleChannels={channels}
        rules={null}
        sources={[]}
        deliveries={deliveries}
        canManage={me.isInstanceOwner}
        smtpConfigured={env().GROUNDWORK_SMTP_URL !== undefined}
      />
    </div>
  );
}
