// Compiled with `tsc --noEmit` by packaging.test.mjs: the declarations an
// application sees must type the documented API (README.md).
import {
  connect, Decimal, ErrorCode, ProcedureError, Timestamp, type Client, type Response, type SqlValue,
} from '@partita/client';

export async function example(): Promise<bigint> {
  const client: Client = await connect({ servers: ['127.0.0.1:21212'], maxInFlight: 1024 });
  const r: Response = await client.call('Vote', [6175551234n, 3, 2n], { timeoutMs: 1000 });
  const code: SqlValue = r.tables[0].get(0, 0);
  const { rows } = await client.query('SELECT COUNT(*) AS n FROM votes WHERE state = ?', ['CA']);
  await client.call('P', [new Decimal('-12.5'), new Timestamp(1n), new Date(), Buffer.from('x'), null, 'text', 1.5]);
  try {
    await client.call('Nope');
  } catch (e) {
    if (e instanceof ProcedureError && e.code === ErrorCode.PROCEDURE_NOT_FOUND) console.log(e.errorName, e.status);
  }
  client.on('reconnecting', (e: { server: string; attempt: number; delayMs: number }) => console.log(e.delayMs));
  await client.drain();
  await client.close();
  return typeof code === 'bigint' ? code : BigInt(rows.length);
}
