"use client";

import Script from "next/script";
import { useCallback, useEffect, useRef, useState } from "react";

type SwaggerUiBundle = (options: { url: string; domNode: HTMLElement; deepLinking: boolean }) => unknown;

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
    window.SwaggerUIBundle({ url: specUrl, domNode: container.current, deepLinking: true });
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
