"use client";

import Script from "next/script";
import { useCallback, useEffect, useRef, useState } from "react";

type SwaggerUiBundle = (options: { url: string; domNode: HTMLElement; deepLinking: boolean }) => unknown;

/**
 * Swagger UI renders a few controls screen readers cannot use (axe: select-name, nested-interactive);
 * its markup is not ours, so they are mended after every render: an unnamed select gets the name of
 * its section, and the deep-link anchor inside each operation's toggle button becomes plain text (the
 * button itself opens the operation and, with deepLinking, puts it in the URL).
 */
function mendSwaggerMarkup(root: HTMLElement): void {
  for (const select of root.querySelectorAll<HTMLSelectElement>("select:not([aria-label]):not([aria-labelledby])")) {
    const section = select.closest(".servers, label[for=servers]")
      ? "Server"
      : select.closest(".content-type-wrapper, .response-control-media-type")
        ? "Media type"
        : "Choice";
    select.setAttribute("aria-label", section);
  }
  for (const anchor of root.querySelectorAll<HTMLAnchorElement>(".opblock-summary-control a[href]")) anchor.removeAttribute("href");
}

declare global {
  interface Window {
    SwaggerUIBundle?: SwaggerUiBundle;
  }
}

/** Swagger UI from the locally served bundle: no CDN, so the reference works offline. */
export function SwaggerUi({ specUrl }: { specUrl: string }) {
  const container = useRef<HTMLDivElement>(null);
  const [loaded, setLoaded] = useState(false);
  const render = useCallback(() => {
    if (!container.current || !window.SwaggerUIBundle) return;
    const root = container.current;
    window.SwaggerUIBundle({ url: specUrl, domNode: root, deepLinking: true });
    new MutationObserver(() => mendSwaggerMarkup(root)).observe(root, { childList: true, subtree: true });
    setLoaded(true);
  }, [specUrl]);

  useEffect(() => {
    if (window.SwaggerUIBundle && !loaded) render();
  }, [loaded, render]);

  return (
    <>
      <Script src="/docs/assets/swagger-ui-bundle.js" strategy="afterInteractive" onLoad={render} />
      <div ref={container} id="swagger-ui" aria-busy={!loaded} />
    </>
  );
}
