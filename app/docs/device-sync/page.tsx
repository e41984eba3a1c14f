import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Device sync guide · Groundwork" };
export const dynamic = "force-static";

// docs/device-sync.md, the integrators' guide to keeping a device's copy in sync, served beside
// the API reference. Shown as written (Markdown is readable as text; no renderer is needed);
// a long command or URL breaks rather than widening a phone's page (D511).
export default async function DeviceSyncPage() {
  const guide = await readFile(path.join(process.cwd(), "docs", "device-sync.md"), "utf8");
  return (
    <main style={{ maxWidth: "60rem", margin: "2rem auto", padding: "0 1rem" }}>
      <p>
        <Link href="/docs">← API reference</Link> · <Link href="/docs/device-sync/library">The library that implements it</Link>
      </p>
      <pre style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere", font: "inherit", lineHeight: 1.5 }}>{guide}</pre>
    </main>
  );
}
