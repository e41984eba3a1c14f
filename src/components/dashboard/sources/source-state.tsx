"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

/**
 * Re-reads the page (server components: header, banners, history, alert pill) every few seconds
 * while something is about to change without anyone pressing a button: a pass running, or a
 * first pass due (D460). Nothing while idle.
 */
export function RefreshWhile({ active, everyMs = 5_000 }: { active: boolean; everyMs?: number }) {
  const router = useRouter();
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => router.refresh(), everyMs);
    return () => clearInterval(timer);
  }, [active, everyMs, router]);
  return null;
}
