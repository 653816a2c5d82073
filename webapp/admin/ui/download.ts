/** An export as the server answers it (/admin/orders/export, /admin/user/ledger/export). */
export interface CsvExport {
  fileName: string;
  csv: string;
  rows: number;
}

/** Saves an export's CSV as a file the browser downloads. */
export function downloadCsv(out: CsvExport): void {
  const url = URL.createObjectURL(new Blob([out.csv], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = out.fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => { URL.revokeObjectURL(url); }, 1_000);
}
