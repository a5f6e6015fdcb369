/** Escaping of arbitrary text for SVG/XML element content and attribute values. */

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/**
 * Text safe inside an XML element or a quoted attribute: the five markup characters become entities
 * and characters XML 1.0 forbids (control characters, lone surrogates) are dropped.
 */
export function escapeXml(text: string): string {
  return (
    text
      // Matching control characters is the point here: XML 1.0 cannot carry them.
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
      .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '')
      .replace(/[&<>"']/g, (ch) => ENTITIES[ch] ?? ch)
  );
}
