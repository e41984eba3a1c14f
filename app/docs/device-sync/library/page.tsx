import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Device sync library · Groundwork" };
export const dynamic = "force-static";

// packages/device-sync/README.md, the README of @groundwork/device-sync (D410), served beside the
// guide it implements. Shown as written, like the guide.
export default async function DeviceSyncLibraryPage() {
  const readme = await readFile(path.join(process.cwd(), "packages", "device-sync", "README.md"), "utf8");
  return (
    <main style={{ maxWidth: "60rem", margin: "2rem auto", padding: "0 1rem" }}>
      <p>
        <Link href="/docs">← API reference</Link> · <Link href="/docs/device-sync">Device sync guide</Link>
      </p>
      <pre style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere", font: "inherit", lineHeight: 1.5 }}>{readme}</pre>
    </main>
  );
}
