import type { ReactNode } from "react";
import { AppShell } from "@/components/dashboard/app-shell";
import { load } from "@/server/api/dashboard/load";
import { Alert } from "@/components/ui/alert";
import { AlertsIndicator } from "@/components/dashboard/alerts/alerts-indicator";

export const dynamic = "force-dynamic";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const me = await load((caller) => caller.viewer.me());
  if (!me.ok) {
    return (
      <main className="mx-auto max-w-xl p-6">
        <Alert title="The dashboard could not load" requestId={me.requestId}>
          {me.message}
        </Alert>
      </main>
    );
  }
  // The open-alerts indicator is a convenience: if it cannot load, the shell still renders.
  const open = await load((caller) => caller.alerts.open());
  return (
    <AppShell viewer={me.data} alerts={open.ok ? <AlertsIndicator open={open.data} /> : null}>
      {children}
    </AppShell>
  );
}
