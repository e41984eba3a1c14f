import type { Metadata } from "next";
import { SwaggerUi } from "./swagger-ui";

export const metadata: Metadata = { title: "API reference · Groundwork" };

export default function DocsPage() {
  return (
    <main>
      <link rel="stylesheet" href="/docs/assets/swagger-ui.css" />
      <SwaggerUi specUrl="/api/v1/openapi.json" />
    </main>
  );
}
