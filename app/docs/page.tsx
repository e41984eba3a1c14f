import type { Metadata } from "next";
import "swagger-ui-dist/swagger-ui.css";
import { SwaggerUi } from "./swagger-ui";

export const metadata: Metadata = { title: "API reference · Groundwork" };

export default function DocsPage() {
  return (
    <main>
      <SwaggerUi specUrl="/api/v1/openapi.json" />
    </main>
  );
}
