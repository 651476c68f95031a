// jcs.js: RFC 8785 JSON canonicalization. JSON.stringify already writes
// strings and numbers as JCS wants them (ECMAScript's own rules); JCS adds
// object members sorted by their UTF-16 code units and no whitespace.
export function canonicalize(value) {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) {
      throw new Error('JCS has no spelling for a non-finite number');
    }
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) {
    return `[${value.map(canonicalize).join(',')}]`;
  }
  const keys = Object.keys(value).filter((k) => value[k] !== undefined).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalize(value[k])}`).join(',')}}`;
}
