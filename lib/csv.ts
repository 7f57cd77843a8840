// RFC 4180 text: CRLF line ends, and a field quoted (with its quotes doubled) only when it holds a
// comma, a quote or a line break, which is how spreadsheets read and write it.

export function csvField(value: string | number): string {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A header row and the data rows, every line ending in CRLF. */
export function toCsv(rows: readonly (readonly (string | number)[])[]): string {
  return rows.map((row) => `${row.map(csvField).join(',')}\r\n`).join('');
}
