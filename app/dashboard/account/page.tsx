import type { Metadata } from "next";
import { AccountView } from "@/components/dashboard/account-view";
import { LoadError } from "@/components/dashboard/load-error";
import { PageHeader } from "@/components/ui/card";
import { load } from "@/server/api/dashboard/load";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Your account · Groundwork" };

export default async function AccountPage() {
  const loaded = await load((caller) => caller.viewer.me());
  if (!loaded.ok) return <LoadError {...loaded} />;
  return (
    <div>
      <PageHeader title="Your account" description={`Signed in as ${loaded.data.email}.`} />
      <AccountView />
    </div>
  );
}
