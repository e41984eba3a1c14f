/**
 * A JSON value still in its serialized form: a jsonb column read as text (D341). The API's body
 * writer copies the text into the response instead of parsing it into objects and serializing
 * them again, the largest share of a rows page's CPU after the database driver. Anything that
 * serializes it generically (JSON.stringify, the contract checks of the tests) gets the parsed
 * value through toJSON, so it is never written out as an object with a `text` field.
 */
export class JsonText {
  constructor(readonly text: string) {}

  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

/** A value as JSON text: a JsonText's own text, anything else through JSON.stringify. */
export function jsonTextOf(value: unknown): string {
  return value instanceof JsonText ? value.text : JSON.stringify(value);
}
