// A device-like rows load: `connections` loops, each walking a source's rows page by page (first
// page to next_cursor null, then again), over keep-alive connections. Every answer is counted by
// status; a request that got no answer at all is a connection error.

export interface LoadStats {
  requests: number;
  statuses: Record<number, number>;
  connectionErrors: number;
  errorSamples: string[];
  connectionErrorSamples: string[];
  walks: number;
}

export function rowsLoad(options: { baseUrl: string; token: string; organizationId: string; sourceId: string; connections: number; limit?: number }) {
  const stats: LoadStats = { requests: 0, statuses: {}, connectionErrors: 0, errorSamples: [], connectionErrorSamples: [], walks: 0 };
  let stopping = false;
  const rowsUrl = `${options.baseUrl}/organizations/${options.organizationId}/data-sources/${options.sourceId}/rows`;
  const loop = async () => {
    let cursor: string | null = null;
    while (!stopping) {
      const url: string = `${rowsUrl}?limit=${options.limit ?? 100}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
      stats.requests += 1;
      try {
        const res: Response = await fetch(url, { headers: { authorization: `Bearer ${options.token}` } });
        const text: string = await res.text();
        stats.statuses[res.status] = (stats.statuses[res.status] ?? 0) + 1;
        if (res.status !== 200) {
          if (stats.errorSamples.length < 5) stats.errorSamples.push(`${res.status} ${text.slice(0, 200)}`);
          cursor = null;
          continue;
        }
        cursor = (JSON.parse(text) as { meta?: { next_cursor?: string | null } }).meta?.next_cursor ?? null;
        if (cursor === null) stats.walks += 1;
      } catch (error) {
        stats.connectionErrors += 1;
        if (stats.connectionErrorSamples.length < 5) stats.connectionErrorSamples.push(String(error instanceof Error && error.cause ? error.cause : error));
        cursor = null;
      }
    }
  };
  const loops = Array.from({ length: options.connections }, loop);
  return {
    stats,
    async stop(): Promise<LoadStats> {
      stopping = true;
      await Promise.all(loops);
      return stats;
    },
  };
}
