import type { ReactNode } from "react";
import { AppShell } from "@/components/dashboard/app-shell";
import { load } from "@/server/api/dashboard/load";
import { Alert } from "@/components/ui/alert";

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
  return <AppShell viewer={me.data}>{children}</AppShell>;
}
