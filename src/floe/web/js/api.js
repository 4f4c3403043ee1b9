// HTTP and WebSocket helpers for the server protocol (docs/server.md).
import { lang } from "./i18n.js";

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** JSON request; throws ApiError with the server's {"error": {"code", "message"}} on failure. */
export async function api(path, { method = "GET", body = undefined, token = null } = {}) {
  // The page's language (its ?lang=, picker or browser's): the server writes its refusals in it.
  const headers = { Accept: "application/json", "Accept-Language": lang };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) {
    const err = data && data.error ? data.error : {};
    throw new ApiError(res.status, err.code || "http", err.message || detailText(data) || `HTTP ${res.status}`);
  }
  return data;
}

// FastAPI's own validation errors come as {"detail": [...]}: turn them into one readable line.
function detailText(data) {
  if (!data || !data.detail) return "";
  if (typeof data.detail === "string") return data.detail;
  return data.detail.map((d) => d.msg || JSON.stringify(d)).join("; ");
}

/** The seat token from "#seat=<token>" (null for a spectator). */
export function seatToken() {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  return params.get("seat") || null;
}

/** The table id from "/table/<id>" or "/replay/<id>". */
export function tableIdFromPath() {
  const parts = location.pathname.split("/").filter(Boolean);
  return decodeURIComponent(parts[1] || "");
}

/**
 * A WebSocket to /ws/tables/{id} that says hello on every (re)connection and reconnects with backoff.
 * The server answers each hello with welcome + a fresh full state, so no state is kept across connections.
 * Callbacks: onMessage(msg, {welcomed}), onStatus("connecting" | "open" | "closed" | "refused").
 * An error before the welcome means the hello itself was refused; then the socket does not retry.
 */
export class TableSocket {
  constructor(tableId, token, { onMessage, onStatus }) {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    this.url = `${scheme}://${location.host}/ws/tables/${encodeURIComponent(tableId)}`;
    this.token = token;
    this.onMessage = onMessage;
    this.onStatus = onStatus || (() => {});
    this.ws = null;
    this.retry = 0;
    this.closedByUs = false;
    this.refused = false; // hello refused (bad token, unknown table): retrying would only repeat it
    this.pingTimer = null;
    this.connect();
  }

  connect() {
    this.onStatus("connecting");
    const ws = new WebSocket(this.url);
    this.ws = ws;
    let welcomed = false;
    ws.addEventListener("open", () => {
      ws.send(JSON.stringify({ type: "hello", token: this.token, lang }));
      this.onStatus("open");
      // Keep idle connections alive through proxies that drop silent sockets.
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), 25000);
    });
    ws.addEventListener("message", (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (msg.type === "welcome") {
        welcomed = true;
        this.retry = 0;
      } else if (msg.type === "error" && !welcomed) {
        this.refused = true;
      }
      this.onMessage(msg, { welcomed });
    });
    ws.addEventListener("close", () => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws || this.closedByUs) return;
      if (this.refused) {
        this.onStatus("refused");
        return;
      }
      this.onStatus("closed");
      // Exponential backoff with a little jitter, capped, so a restarting server is not hammered.
      const delay = Math.min(10000, 500 * 2 ** this.retry) + Math.random() * 250;
      this.retry += 1;
      setTimeout(() => this.connect(), delay);
    });
  }

  /** Send a message; false if the socket is not open (the caller keeps its input enabled). */
  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  close() {
    this.closedByUs = true;
    if (this.ws) this.ws.close();
  }
}
