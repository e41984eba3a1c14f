import type { Metadata } from "next";
import type { ReactNode } from "react";
import "./globals.css";

// NOTE: every page renders per request, so Next can put that response's nonce on its inline
// scripts (D175); a page prerendered at build time would carry none and be blocked.
export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: "Groundwork",
  description: "Field data collection: the Customer API and its admin dashboard.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
