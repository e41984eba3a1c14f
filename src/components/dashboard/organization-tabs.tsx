"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { ScrollTabs } from "@/components/ui/scroll-tabs";
import { cn } from "@/lib/utils";

/** An organization's sections. */
const TABS = [
  { segment: "keys", label: "API keys" },
  { segment: "sources", label: "Sources" },
  { segment: "members", label: "Members" },
  { segment: "forms", label: "Forms" },
  { segment: "connect", label: "Connect an integration" },
  { segment: "alerts", label: "Alerts" },
  // The request log is for admins, owners and support (D197): members do not get the tab.
  { segment: "requests", label: "Requests", logReaders: true },
];

export function OrganizationTabs({ organizationId, showRequests }: { organizationId: string; showRequests: boolean }) {
  const pathname = usePathname();
  return (
    <ScrollTabs label="Organization sections" className="mb-5">
      {TABS.filter((tab) => showRequests || !("logReaders" in tab)).map((tab) => {
        const href = `/dashboard/organizations/${organizationId}/${tab.segment}`;
        const active = pathname.startsWith(href);
        return (
          <Link
            key={tab.segment}
            href={href}
            aria-current={active ? "page" : undefined}
            className={cn(
              "-mb-px shrink-0 border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-600",
              active ? "border-slate-900 text-slate-900" : "border-transparent text-slate-600 hover:text-slate-900",
            )}
          >
            {tab.label}
          </Link>
        );
      })}
    </ScrollTabs>
  );
}
