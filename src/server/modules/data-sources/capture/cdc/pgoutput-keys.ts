import { PgoutputPlugin, type Pgoutput } from "pg-logical-replication";
import type { TableName } from "../../connectors/postgres-table/identifiers";

/**
 * pgoutput with every column left in Postgres's text form: keys are compared with the
 * connector's `key::text`, so they must not be turned into JavaScript numbers or Dates on the way.
 * NOTE: a relation message is parsed before the rows that follow it (one parser, in stream
 * order), so its columns' parsers are replaced before any of its rows is read.
 */
export class TextPgoutputPlugin extends PgoutputPlugin {
  override parse(buffer: Buffer): Pgoutput.Message {
    const message = super.parse(buffer);
    if (message.tag === "relation") for (const column of message.columns) column.parser = (raw: unknown) => raw;
    return message;
  }
}

/** What one committed customer transaction did to the source's table. */
export interface TableChanges {
  keys: Set<string>;
  truncated: boolean;
}

/** Adds the keys a row message touched (an update that moves a key touches both). */
export function noteChange(changes: TableChanges, message: Pgoutput.Message, table: TableName, keyColumn: string): void {
  switch (message.tag) {
    case "insert":
    case "update":
    case "delete": {
      if (message.relation.schema !== table.schema || message.relation.name !== table.table) return;
      const tuples = message.tag === "insert" ? [message.new] : message.tag === "update" ? [message.new, message.key, message.old] : [message.key, message.old];
      for (const tuple of tuples) {
        const value = tuple?.[keyColumn];
        if (typeof value === "string") changes.keys.add(value);
      }
      return;
    }
    case "truncate":
      if (message.relations.some((relation) => relation.schema === table.schema && relation.name === table.table)) changes.truncated = true;
      return;
    default:
      return;
  }
}
