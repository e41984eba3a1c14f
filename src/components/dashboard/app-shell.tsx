import { Activity, Bell, Building2, KeyRound, LayoutDashboard, LifeBuoy, ScrollText, UserCog, Users } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";
import { NavLink } from "./nav-link";
import { NavMenu } from "./nav-menu";
import { RequestSearch } from "./requests/request-search";
import { SignOutButton } from "./sign-out-button";

export interface ShellViewer {
  email: string;
  name: string | null;
  isInstanceOwner: boolean;
  isSupport: boolean;
  memberships: { organizationId: string; organizationName: string; role: "admin" | "member" }[];
}

export function roleLabel(viewer: ShellViewer): string {
  if (viewer.isInstanceOwner) return "Instance owner";
  if (viewer.isSupport) return "Support (read-only)";
  if (viewer.memberships.some((m) => m.role === "admin")) return "Organization admin";
  return "Organization member";
}

/**
 * The dashboard frame. Navigation: Overview, Organizations (each → Keys / Sources / Members),
 * and for owners and support the Support board, Instance keys and Users. Entries a viewer cannot use are not shown; the server refuses them anyway.
 */
export function AppShell({ viewer, children, alerts }: { viewer: ShellViewer; children: ReactNode; alerts?: ReactNode }) {
  const instanceLevel = viewer.isInstanceOwner || viewer.isSupport;
  const logReader = instanceLevel || viewer.memberships.some((m) => m.role === "admin");
  return (
    <div className="min-h-screen bg-slate-50 md:flex">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      {/* The aside stretches to the page's full height (its background and border with it); its
          content stays in view while the page scrolls (sticky, at most one window tall). At phone
          widths it is one bar with a menu button; the navigation opens under it (NavMenu, D510). */}
      <aside className="border-b border-slate-200 bg-white md:w-56 md:shrink-0 md:border-r md:border-b-0">
        <div className="md:sticky md:top-0 md:max-h-screen md:overflow-y-auto">
          <NavMenu
            brand={
              <Link href="/dashboard" className="font-semibold tracking-tight text-slate-900">
                Groundwork
              </Link>
            }
            bar={alerts}
          >
            <nav aria-label="Main" className="flex flex-col gap-1 px-2 pt-2 md:pt-0">
              <NavLink href="/dashboard" exact icon={<LayoutDashboard aria-hidden />}>
                Overview
              </NavLink>
              <NavLink href="/dashboard/organizations" icon={<Building2 aria-hidden />}>
                Organizations
              </NavLink>
              {instanceLevel ? (
                <NavLink href="/dashboard/support" icon={<LifeBuoy aria-hidden />}>
                  Support board
                </NavLink>
              ) : null}
              {instanceLevel ? (
                <NavLink href="/dashboard/instance/keys" icon={<KeyRound aria-hidden />}>
                  Instance keys
                </NavLink>
              ) : null}
              {instanceLevel ? (
                <NavLink href="/dashboard/instance/alerts" icon={<Bell aria-hidden />}>
                  Instance alerts
                </NavLink>
              ) : null}
              {instanceLevel ? (
                <NavLink href="/dashboard/users" icon={<Users aria-hidden />}>
                  Users
                </NavLink>
              ) : null}
              {logReader ? (
                <NavLink href="/dashboard/requests" icon={<Activity aria-hidden />}>
                  Requests
                </NavLink>
              ) : null}
              {logReader ? (
                <NavLink href="/dashboard/audit" icon={<ScrollText aria-hidden />}>
                  Audit log
                </NavLink>
              ) : null}
              <NavLink href="/dashboard/account" icon={<UserCog aria-hidden />}>
                Your account
              </NavLink>
            </nav>
            {logReader ? <RequestSearch id="request-search-compact" className="px-3 pt-3 md:hidden" /> : null}
            {viewer.memberships.length > 0 ? (
              <div className="px-4 pt-5">
                <p className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Your organizations</p>
                <ul className="mt-2 space-y-1 text-sm">
                  {viewer.memberships.slice(0, 12).map((m) => (
                    <li key={m.organizationId}>
                      <Link
                        href={`/dashboard/organizations/${m.organizationId}/keys`}
                        className="block truncate rounded px-2 py-1 text-slate-700 hover:bg-slate-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-600"
                      >
                        {m.organizationName}
                      </Link>
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
            {/* The desktop header's account line, at phone widths inside the menu. */}
            <div className="mx-3 mt-4 flex items-center justify-between gap-3 border-t border-slate-200 pt-3 md:hidden">
              <div className="min-w-0 text-sm">
                <p className="truncate font-medium text-slate-900">{viewer.email}</p>
                <p className="text-xs text-slate-600">{roleLabel(viewer)}</p>
              </div>
              <SignOutButton />
            </div>
          </NavMenu>
        </div>
      </aside>
      <div className="min-w-0 flex-1">
        <header className="hidden items-center justify-end gap-3 border-b border-slate-200 bg-white px-6 py-3 md:flex">
          {logReader ? <RequestSearch id="request-search" className="mr-auto" /> : null}
          {alerts}
          <div className="text-right text-sm">
            <p className="font-medium text-slate-900" data-testid="viewer-email">
              {viewer.email}
            </p>
            <p className="text-xs text-slate-500">{roleLabel(viewer)}</p>
          </div>
          <SignOutButton />
        </header>
        {/* A name, id or address without spaces breaks where it does not fit its line rather than
            widen the page at phone widths; a table keeps its words whole and scrolls in its own box
            instead (D511). break-word, not anywhere: a button or label in a row does not shrink. */}
        <main id="main" className="mx-auto max-w-6xl px-4 py-6 wrap-break-word sm:px-6 [&_table]:wrap-normal">
          {children}
        </main>
      </div>
    </div>
  );
}
