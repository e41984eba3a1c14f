import type { Metadata } from "next";
import Link from "next/link";
import "swagger-ui-dist/swagger-ui.css";
import "./swagger-a11y.css";
import { SwaggerUi } from "./swagger-ui";

export const metadata: Metadata = { title: "API reference · Groundwork" };

export default function DocsPage() {
  return (
    <main>
      <p style={{ margin: "1rem 2rem 0" }}>
        Building a device that keeps an offline copy of a data source? Read the <Link href="/docs/device-sync">device sync guide</Link> first: which walk to
        use, what to keep as the high-water mark, and what to do on each error. Or use the <Link href="/docs/device-sync/library">device sync library</Link>,{" "}
        <code>@groundwork/device-sync</code>, which does all of it.
      </p>
      <SwaggerUi specUrl="/api/v1/openapi.json" />
    </main>
  );
}
