// Calls to Partita's HTTP/JSON API (docs/http-api.md) from the page's own
// origin. Every call is a JSON POST to /api/1.0/ with a time bound; every
// way it can fail becomes an ApiError whose kind tells the page what to say.

/** Why a call failed: "unreachable" (no answer), "http" (a non-200 answer), "call" (the call ran and failed). */
export class ApiError extends Error {
  constructor(kind, message) {
    super(message);
    this.name = "ApiError";
    this.kind = kind;
  }
}

/**
 * Calls a procedure and resolves to its result tables (the response's
 * `results`). Rejects with an ApiError when the server does not answer
 * within `timeoutMs`, answers a non-200 HTTP status, or the call's status is
 * not SUCCESS.
 */
export async function callProcedure(procedure, parameters = [], timeoutMs = 2000) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await send(procedure, parameters, controller.signal);
    const body = await readJson(response, procedure);
    if (!response.ok) {
      throw new ApiError("http", `${procedure}: HTTP ${response.status} ${body.errorName}: ${body.message}`);
    }
    if (body.status !== 1) {
      throw new ApiError("call", `${procedure}: ${body.statusString} ${body.errorName}: ${body.message}`);
    }
    return body.results;
  } catch (error) {
    throw asApiError(error, timeoutMs);
  } finally {
    clearTimeout(timer);
  }
}

function send(procedure, parameters, signal) {
  return fetch("/api/1.0/", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ Procedure: procedure, Parameters: parameters }),
    cache: "no-store",
    signal,
  });
}

async function readJson(response, procedure) {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError("http", `${procedure}: HTTP ${response.status}, not a JSON answer`);
  }
}

function asApiError(error, timeoutMs) {
  if (error instanceof ApiError) {
    return error;
  }
  if (error.name === "AbortError") {
    return new ApiError("unreachable", `no answer within ${timeoutMs} ms`);
  }
  return new ApiError("unreachable", "the server does not answer (connection refused or lost)");
}

/**
 * The rows of a result table as objects keyed by upper-case column name
 * ({CONTESTANT_NUMBER: 3, ...}). A missing table gives no rows.
 */
export function rowsOf(table) {
  if (!table || !Array.isArray(table.columns) || !Array.isArray(table.data)) {
    return [];
  }
  const names = table.columns.map((column) => String(column.name).toUpperCase());
  return table.data.map((values) => Object.fromEntries(names.map((name, i) => [name, values[i]])));
}

/** A count from the API: a finite number, or 0 for NULL and anything else. */
export function countOf(value) {
  const number = typeof value === "number" ? value : Number(value);
  return Number.isFinite(number) && number > 0 ? number : 0;
}
