// menurank.js: the browser client of menurank. One ES module, no dependencies.
//
//   import { MenurankClient } from "./menurank.js";
//   const menurank = await MenurankClient.create({
//     endpoint: "https://menurank.example.com", writeKey: "mrk_w_...", readKey: "mrk_r_...",
//     userId: account.id, salt: "an app-wide secret", context: { appVersion: "5.2.1", platform: "web" },
//   });
//   const layout = await menurank.layout("mail.message");   // what to show, with its menu_version
//   menurank.record({ elementType: "mail.message", command: "reply", position: 0, latencyMs: 840,
//                     menuVersion: layout.menuVersion });
//
// What it guarantees, as the Swift library (Sources/MenurankClient) does:
// - Every event gets a UUIDv7 id when it is recorded and keeps it on every attempt, so a retry,
//   a reload or two tabs sending the same journal only produce duplicates, which the daemon
//   stores once.
// - Recorded events go to a journal (IndexedDB; localStorage where IndexedDB is missing) and leave
//   it only once the daemon acknowledged them: a reload, a closed tab or a daemon that is down
//   loses nothing; the next load sends what is left.
// - Batches of up to `maxBatchEvents` (500) or `maxBatchBytes`, sent when that many are waiting
//   or the oldest has waited `maxBatchAgeMs` (5 s). Network errors, 408, 429 and 5xx: exponential
//   backoff with full jitter (0.5 s doubling to 60 s), never sooner than `Retry-After`. 413 (or
//   400) splits the batch down to single events; one the daemon still refuses is reported to
//   `onRejection` and dropped. 401, 403, 404, 405, 415 stop delivery (`onDeliveryStopped`); the
//   events stay in the journal for a client with a good key.
// - When the page is hidden or left (`visibilitychange`, `pagehide`), what is waiting goes out
//   with `fetch(..., {keepalive: true})`, within the 64 KiB that browsers allow such requests in
//   all; what is not acknowledged stays in the journal.
// - `menus()` and `layout()` fetch the served layouts with `If-None-Match` and keep the last good
//   copy (localStorage), served with `fromCache: true` while the daemon cannot be reached.
// - The person's id is hashed on the device (HMAC-SHA-256 under an app-provided salt, Web
//   Crypto); only the hash is sent, as `user`. A rollout's arm is chosen from that hash.

/** Browsers refuse keepalive requests whose bodies in flight add up to more than 64 KiB. */
const KEEPALIVE_BYTES = 60 * 1024;

const DEFAULTS = {
  maxBatchEvents: 500,
  maxBatchBytes: 512 * 1024,
  maxBatchAgeMs: 5000,
  minimumBackoffMs: 500,
  maximumBackoffMs: 60_000,
  maximumRetryAfterMs: 3_600_000,
  maxJournalEvents: 20_000,
  requestTimeoutMs: 30_000,
  name: "default",
};

const encoder = new TextEncoder();

// ---------------------------------------------------------------------------------------------
// Ids, hashing and the rollout arm

/**
 * A UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, then random bits. Time-ordered, like the
 * Swift library's ids, so the daemon's closed days (sorted by event id) stay compact.
 * `crypto.getRandomValues` works on plain http pages too, where `crypto.randomUUID` does not.
 */
export function uuidv7(now = Date.now()) {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  let ms = now;
  for (let i = 5; i >= 0; i--) {
    bytes[i] = ms % 256;
    ms = Math.floor(ms / 256);
  }
  bytes[6] = (bytes[6] & 0x0f) | 0x70; // version 7
  bytes[8] = (bytes[8] & 0x3f) | 0x80; // variant 10
  const hex = hexOf(bytes);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function hexOf(bytes) {
  let out = "";
  for (const byte of bytes) out += byte.toString(16).padStart(2, "0");
  return out;
}

function subtle() {
  if (!globalThis.crypto || !crypto.subtle) {
    throw new Error("menurank: Web Crypto is missing (pages must be served over https, or from localhost)");
  }
  return crypto.subtle;
}

/**
 * The `user` to send for a person: the hex of HMAC-SHA-256(key: UTF-8 salt, message: UTF-8 id).
 * The salt is the app's, the same on every device, so a person gets the same hash everywhere and
 * the daemon never sees the account id (docs/privacy.md). Never send an email or a name unhashed.
 */
export async function hashUser(id, salt) {
  if (typeof id !== "string" || id === "") throw new TypeError("menurank: the user id must be a non-empty string");
  if (typeof salt !== "string" || salt === "") throw new TypeError("menurank: the salt must be a non-empty string");
  const key = await subtle().importKey("raw", encoder.encode(salt), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return hexOf(new Uint8Array(await subtle().sign("HMAC", key, encoder.encode(id))));
}

/**
 * Whether `user` (exactly as sent in events) is in a rollout's new arm (shared-contracts.md):
 * h = SHA-256(UTF-8(salt) || 0x00 || UTF-8(user)); the first 8 bytes of h as a big-endian
 * unsigned 64-bit v; the new arm iff v / 2^64 < share. The threshold is monotone, so widening
 * the share keeps everyone already in the new arm there.
 */
export async function inRolloutArm(salt, user, share) {
  const saltBytes = encoder.encode(salt);
  const userBytes = encoder.encode(user);
  const message = new Uint8Array(saltBytes.length + 1 + userBytes.length);
  message.set(saltBytes, 0);
  message[saltBytes.length] = 0;
  message.set(userBytes, saltBytes.length + 1);
  const digest = new DataView(await subtle().digest("SHA-256", message));
  const v = digest.getBigUint64(0, false);
  // Number(v) rounds to the nearest double (ties to even), as Swift's Double(UInt64) and Python's
  // float(int) do; dividing by 2^64 is then exact. So every client draws the same line.
  return Number(v) / 2 ** 64 < share;
}

// ---------------------------------------------------------------------------------------------
// Delivery policy (pure; mirrors Sources/MenurankClient/DeliveryDecision.swift)

/** What to do with a batch after the daemon's answer. */
export function classifyStatus(status) {
  if (status >= 200 && status < 300) return "acknowledged";
  if (status === 413 || status === 400 || status === 422) return "split";
  if ([401, 403, 404, 405, 415].includes(status)) return "stop";
  return "retry"; // 408, 425, 429, 5xx and anything unexpected
}

/** Full jitter between 0 and base * 2^attempt (capped), never shorter than Retry-After (capped). */
export function backoffDelay(attempt, retryAfterMs, options, unit = Math.random()) {
  const ceiling = Math.min(options.maximumBackoffMs, options.minimumBackoffMs * 2 ** Math.min(attempt, 30));
  const jittered = ceiling * Math.min(Math.max(unit, 0), 1);
  if (retryAfterMs == null) return jittered;
  return Math.max(Math.min(retryAfterMs, options.maximumRetryAfterMs), jittered);
}

/** `Retry-After` as delta-seconds or an HTTP date, in milliseconds from `now`; null when absent. */
export function parseRetryAfter(value, now = Date.now()) {
  if (value == null || value.trim() === "") return null;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

// ---------------------------------------------------------------------------------------------
// Journals: where recorded events wait for their acknowledgement. Each entry is
// {key, json, bytes}: `key` orders entries (recording time, then id) and is the same on every
// write of the entry, so writing one twice (a spill replayed after a reload) keeps one copy.

/** The journal in IndexedDB: one object store, keyed by `key`. */
class IndexedDBJournal {
  constructor(name) {
    this.name = `menurank-journal:${name}`;
    this.db = null;
  }

  open() {
    return new Promise((resolve, reject) => {
      const request = indexedDB.open(this.name, 1);
      request.onupgradeneeded = () => request.result.createObjectStore("events", { keyPath: "key" });
      request.onsuccess = () => {
        this.db = request.result;
        // Another tab upgrading the database: let it (this tab keeps its events in memory).
        this.db.onversionchange = () => this.db.close();
        resolve();
      };
      request.onerror = () => reject(request.error);
      request.onblocked = () => reject(new Error("menurank: the journal's database is blocked by another tab"));
    });
  }

  /** Every entry, in key order. */
  loadAll() {
    return this.#transaction("readonly", (store) => store.getAll());
  }

  put(entries) {
    return this.#transaction("readwrite", (store) => {
      for (const entry of entries) store.put(entry);
    });
  }

  remove(keys) {
    return this.#transaction("readwrite", (store) => {
      for (const key of keys) store.delete(key);
    });
  }

  /** Runs `body` in one transaction; resolves with its request's result once the transaction commits. */
  #transaction(mode, body) {
    return new Promise((resolve, reject) => {
      const transaction = this.db.transaction("events", mode);
      const request = body(transaction.objectStore("events"));
      transaction.oncomplete = () => resolve(request ? request.result : undefined);
      transaction.onerror = () => reject(transaction.error);
      transaction.onabort = () => reject(transaction.error || new Error("menurank: journal transaction aborted"));
    });
  }
}

/** The journal in localStorage (one JSON array), where IndexedDB is missing. Synchronous. */
class LocalStorageJournal {
  constructor(name) {
    this.key = `menurank:${name}:journal`;
  }

  async open() {}

  async loadAll() {
    return this.#read();
  }

  async put(entries) {
    const byKey = new Map(this.#read().map((entry) => [entry.key, entry]));
    for (const entry of entries) byKey.set(entry.key, entry);
    this.#write([...byKey.values()].sort(compareEntries));
  }

  async remove(keys) {
    const gone = new Set(keys);
    this.#write(this.#read().filter((entry) => !gone.has(entry.key)));
  }

  #read() {
    try {
      return JSON.parse(localStorage.getItem(this.key) || "[]");
    } catch {
      return [];
    }
  }

  #write(entries) {
    localStorage.setItem(this.key, JSON.stringify(entries));
  }
}

function compareEntries(a, b) {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

function hasIndexedDB() {
  try {
    return typeof indexedDB !== "undefined" && indexedDB !== null;
  } catch {
    return false; // some browsers throw when storage is disabled
  }
}

// ---------------------------------------------------------------------------------------------
// The client

export class MenurankClient {
  /** The options, with defaults applied. */
  #options;
  #journal;
  /** Every entry in the journal that this page knows of, in key order (the send queue). */
  #entries = [];
  /** Entries recorded whose journal write has not committed yet (spilled at `pagehide`). */
  #unjournaled = new Map();
  /** Keys of entries in a request now. */
  #inFlight = new Set();
  /** Body bytes of keepalive requests in flight (their sum must stay under 64 KiB). */
  #keepaliveBytes = 0;
  #user = null;
  #attempt = 0;
  /** No request before this time (ms since 1970): the backoff, or the daemon's Retry-After. */
  #notBefore = 0;
  /** True while the notBefore comes from the daemon's Retry-After (flush() does not skip it). */
  #serverAsked = false;
  #sending = false;
  #timer = null;
  #flushWaiters = [];
  #stopped = null;
  #closed = false;
  #listeners = [];
  #metrics = { queued: 0, sent: 0, duplicates: 0, rejected: 0, dropped: 0, retries: 0, lastError: null, deliveryStopped: false };

  /**
   * Makes a client and loads its journal (what earlier loads left unsent is sent from here on).
   * Options: `endpoint` (the daemon's URL), `writeKey`, `readKey` (for menus), `userId` (the
   * account id, hashed with `salt` before use), `user` (an id already hashed), `context`
   * (`appVersion`, `platform`, `locale`, `isTest`), `name` (journal name, one per app), the batching
   * and backoff numbers of DEFAULTS, `onRejection(rejection)`, `onDeliveryStopped(status, code)`,
   * `fetch` (a fetch function; the page's by default).
   */
  static async create(options) {
    const client = new MenurankClient(options);
    await client.#start(options);
    return client;
  }

  constructor(options) {
    if (!options || typeof options.endpoint !== "string") throw new TypeError("menurank: endpoint is required");
    this.#options = { ...DEFAULTS, ...options, endpoint: options.endpoint.replace(/\/+$/, "") };
    this.#options.context = { ...(options.context || {}) };
    this.#options.fetch = options.fetch || globalThis.fetch.bind(globalThis);
    this.#journal = hasIndexedDB() && !options.forceLocalStorage
      ? new IndexedDBJournal(this.#options.name)
      : new LocalStorageJournal(this.#options.name);
  }

  async #start(options) {
    if (options.userId != null) await this.identify(options.userId);
    else if (options.user != null) this.#user = String(options.user);
    try {
      await this.#journal.open();
    } catch (error) {
      // IndexedDB refused (private mode in some browsers): keep going on localStorage.
      this.#metrics.lastError = String(error);
      this.#journal = new LocalStorageJournal(this.#options.name);
    }
    const loaded = await this.#journal.loadAll();
    // Events that were recorded but not yet in the journal when the last page went away.
    const { keys: spillKeys, entries: spilled } = this.#readSpills();
    if (spilled.length > 0) await this.#journal.put(spilled);
    this.#clearSpills(spillKeys);
    const byKey = new Map(loaded.map((entry) => [entry.key, entry]));
    for (const entry of spilled) byKey.set(entry.key, entry);
    this.#entries = [...byKey.values()].sort(compareEntries);
    this.#metrics.queued = this.#entries.length;
    this.#listen();
    this.#schedule();
  }

  /** Sets the person: events recorded from now on carry the hash of `userId`. */
  async identify(userId) {
    if (!this.#options.salt) throw new TypeError("menurank: identify() needs the salt option");
    this.#user = await hashUser(String(userId), this.#options.salt);
    return this.#user;
  }

  /** The `user` events carry (the hash), or null. */
  get user() {
    return this.#user;
  }

  /** Counters: queued (in the journal), sent, duplicates, rejected, dropped, retries, lastError, deliveryStopped. */
  get metrics() {
    return { ...this.#metrics, queued: this.#entries.length };
  }

  /**
   * Records a pick: `{elementType, command, position, latencyMs, menuVersion, trigger, session}`.
   * Returns the event's id. Never touches the network; never throws for the network's sake.
   */
  record(pick) {
    if (!pick || typeof pick.command !== "string") throw new TypeError("menurank: record() needs a command");
    return this.#enqueue({ ...pick, kind: undefined });
  }

  /** Records a menu that was opened and closed without a pick: `{elementType, latencyMs, menuVersion, trigger}`. */
  dismiss(dismissal) {
    return this.#enqueue({ ...dismissal, command: undefined, position: undefined, kind: "dismiss" });
  }

  #enqueue(fields) {
    if (this.#closed) throw new Error("menurank: the client is closed");
    if (typeof fields.elementType !== "string") throw new TypeError("menurank: elementType is required");
    const now = fields.time instanceof Date ? fields.time : new Date();
    const id = uuidv7(now.getTime());
    const context = this.#options.context;
    // The wire form of DESIGN.md; members left out when unknown. Each event carries its context,
    // so an event recorded before an app update keeps the version it was recorded under.
    const event = {
      id,
      time: now.toISOString(),
      element_type: fields.elementType,
      command: fields.command,
      kind: fields.kind,
      position: fields.position,
      latency_ms: fields.latencyMs == null ? undefined : Math.max(0, Math.round(fields.latencyMs)),
      menu_version: fields.menuVersion ?? undefined,
      trigger: fields.trigger,
      user: this.#user ?? undefined,
      session: fields.session,
      app_version: context.appVersion,
      platform: context.platform,
      locale: context.locale,
      is_test: context.isTest,
    };
    const json = JSON.stringify(event); // undefined members are left out
    const entry = { key: `${String(now.getTime()).padStart(15, "0")}.${id}`, json, bytes: encoder.encode(json).length };
    this.#entries.push(entry);
    if (this.#entries.length > 1 && compareEntries(this.#entries.at(-2), entry) > 0) this.#entries.sort(compareEntries);
    this.#unjournaled.set(entry.key, entry);
    this.#dropOverflow();
    this.#persistSoon();
    this.#schedule();
    return id;
  }

  /** Past `maxJournalEvents`, the oldest events are dropped (and counted). */
  #dropOverflow() {
    const excess = this.#entries.length - this.#options.maxJournalEvents;
    if (excess <= 0) return;
    const dropped = this.#entries.splice(0, excess).filter((entry) => !this.#inFlight.has(entry.key));
    this.#metrics.dropped += dropped.length;
    for (const entry of dropped) this.#unjournaled.delete(entry.key);
    this.#journal.remove(dropped.map((entry) => entry.key)).catch(() => {});
  }

  #persisting = false;

  /** Writes what was recorded since the last write, in one journal transaction per turn. */
  #persistSoon() {
    if (this.#persisting) return;
    this.#persisting = true;
    queueMicrotask(async () => {
      while (this.#unjournaled.size > 0) {
        const batch = [...this.#unjournaled.values()];
        try {
          await this.#journal.put(batch);
          // Acknowledged meanwhile? Then it must not stay in the journal.
          const live = new Set(this.#entries.map((entry) => entry.key));
          const gone = batch.filter((entry) => !live.has(entry.key)).map((entry) => entry.key);
          if (gone.length > 0) await this.#journal.remove(gone);
        } catch (error) {
          this.#metrics.lastError = `journal: ${error}`;
          break; // stay unjournaled: spilled at pagehide, tried again with the next record
        }
        for (const entry of batch) this.#unjournaled.delete(entry.key);
      }
      // What this page spilled (the page was hidden, then came back) is in the journal now.
      if (this.#spilled && this.#unjournaled.size === 0) {
        this.#clearSpills([this.#spillPrefix + this.#pageId]);
        this.#spilled = false;
      }
      this.#persisting = false;
    });
  }

  // --- Delivery ---------------------------------------------------------------------------------

  /** Sends what is due now, or sets a timer for when it will be (and ends a flush that must wait). */
  #schedule() {
    if (this.#sending) return; // the loop calls again when it ends
    clearTimeout(this.#timer);
    this.#timer = null;
    if (this.#closed || this.#stopped) return this.#resolveFlush();
    const waiting = this.#entries.filter((entry) => !this.#inFlight.has(entry.key));
    if (waiting.length === 0) return this.#resolveFlush();
    const now = Date.now();
    const oldest = Number(waiting[0].key.slice(0, 15));
    const flushing = this.#flushWaiters.length > 0;
    let due = flushing || waiting.length >= this.#options.maxBatchEvents ? now : oldest + this.#options.maxBatchAgeMs;
    due = Math.max(due, this.#notBefore);
    if (due <= now) return this.#sendLoop();
    // Waiting for a backoff or a Retry-After: a flush ends here (see metrics.lastError).
    if (this.#notBefore > now) this.#resolveFlush();
    this.#timer = setTimeout(() => this.#schedule(), Math.min(due - now, 2 ** 31 - 1));
  }

  /** Sends batches until nothing is due, the daemon asks to wait, or delivery stops. */
  async #sendLoop() {
    this.#sending = true;
    try {
      for (;;) {
        const batch = this.#takeBatch(this.#options.maxBatchEvents, this.#options.maxBatchBytes);
        if (batch.length === 0) break;
        const outcome = await this.#deliver(batch, false);
        if (outcome !== "done") break;
        const waiting = this.#entries.length - this.#inFlight.size;
        const flushing = this.#flushWaiters.length > 0;
        if (!flushing && waiting < this.#options.maxBatchEvents) break;
      }
    } finally {
      this.#sending = false;
    }
    this.#schedule();
  }

  /** The oldest entries not in flight, up to `maxEvents` and `maxBytes` of body. */
  #takeBatch(maxEvents, maxBytes) {
    const batch = [];
    let bytes = 64; // the envelope
    for (const entry of this.#entries) {
      if (this.#inFlight.has(entry.key)) continue;
      if (batch.length >= maxEvents || (batch.length > 0 && bytes + entry.bytes + 1 > maxBytes)) break;
      batch.push(entry);
      bytes += entry.bytes + 1;
    }
    return batch;
  }

  /**
   * Sends `batch` (splitting it on 413/400) and applies the answers. Returns "done" (every event
   * acknowledged or rejected), "retry" (wait: #notBefore is set) or "stop".
   */
  async #deliver(batch, pageIsGoing) {
    const body = `{"sent_at":${JSON.stringify(new Date().toISOString())},"events":[${batch.map((entry) => entry.json).join(",")}]}`;
    const bodyBytes = encoder.encode(body).length;
    // A request in flight when the page goes away is finished by the browser only with keepalive,
    // which allows 64 KiB of bodies in flight in all.
    const keepalive = bodyBytes <= KEEPALIVE_BYTES - this.#keepaliveBytes;
    if (pageIsGoing && !keepalive) return "retry";
    for (const entry of batch) this.#inFlight.add(entry.key);
    if (keepalive) this.#keepaliveBytes += bodyBytes;
    let response = null;
    let failure = null;
    const abort = typeof AbortController === "function" && !pageIsGoing ? new AbortController() : null;
    const timeout = abort ? setTimeout(() => abort.abort(), this.#options.requestTimeoutMs) : null;
    try {
      response = await this.#options.fetch(`${this.#options.endpoint}/v1/events`, {
        method: "POST",
        headers: { Authorization: `Bearer ${this.#options.writeKey}`, "Content-Type": "application/json" },
        body,
        keepalive,
        mode: "cors",
        credentials: "omit",
        cache: "no-store",
        signal: abort ? abort.signal : undefined,
      });
    } catch (error) {
      failure = error; // offline, refused, CORS refused, aborted: all look alike from here
    } finally {
      clearTimeout(timeout);
      if (keepalive) this.#keepaliveBytes -= bodyBytes;
      for (const entry of batch) this.#inFlight.delete(entry.key);
    }
    if (failure) return this.#retryLater(`network: ${failure.message || failure}`, null);

    switch (classifyStatus(response.status)) {
      case "acknowledged": {
        let reply = {};
        try {
          reply = await response.json();
        } catch {
          // A 2xx is an acknowledgement even if its body went missing.
        }
        for (const rejection of reply.rejected || []) {
          this.#metrics.rejected += 1;
          this.#report(rejection);
        }
        this.#metrics.sent += reply.accepted || 0;
        this.#metrics.duplicates += reply.duplicates || 0;
        await this.#acknowledge(batch);
        this.#attempt = 0;
        this.#serverAsked = false;
        return "done";
      }
      case "split": {
        const code = await errorCode(response);
        if (batch.length === 1) {
          // The daemon refuses this event whatever the batch: report it and let it go.
          this.#metrics.rejected += 1;
          this.#report({ index: 0, id: idOf(batch[0]), code: code || `http_${response.status}`, message: "refused by the daemon" });
          await this.#acknowledge(batch);
          return "done";
        }
        const half = Math.ceil(batch.length / 2);
        const first = await this.#deliver(batch.slice(0, half), pageIsGoing);
        if (first !== "done") return first;
        return this.#deliver(batch.slice(half), pageIsGoing);
      }
      case "stop": {
        const code = await errorCode(response);
        this.#stopped = { status: response.status, code };
        this.#metrics.deliveryStopped = true;
        this.#metrics.lastError = `delivery stopped: ${response.status} ${code || ""}`.trim();
        this.#options.onDeliveryStopped?.(response.status, code);
        return "stop";
      }
      default: {
        const code = await errorCode(response);
        const retryAfter = parseRetryAfter(response.headers.get("Retry-After"));
        return this.#retryLater(`${response.status} ${code || ""}`.trim(), retryAfter);
      }
    }
  }

  #retryLater(why, retryAfterMs) {
    const delay = backoffDelay(this.#attempt, retryAfterMs, this.#options);
    this.#attempt += 1;
    this.#metrics.retries += 1;
    this.#metrics.lastError = why;
    this.#notBefore = Date.now() + delay;
    this.#serverAsked = retryAfterMs != null;
    return "retry";
  }

  /** Removes acknowledged (or rejected) entries from the queue and the journal. */
  async #acknowledge(batch) {
    const done = new Set(batch.map((entry) => entry.key));
    this.#entries = this.#entries.filter((entry) => !done.has(entry.key));
    const journaled = batch.filter((entry) => !this.#unjournaled.has(entry.key)).map((entry) => entry.key);
    for (const entry of batch) this.#unjournaled.delete(entry.key);
    try {
      await this.#journal.remove(journaled);
    } catch (error) {
      // Left in the journal: sent again on a later load, stored once.
      this.#metrics.lastError = `journal: ${error}`;
    }
  }

  #report(rejection) {
    try {
      this.#options.onRejection?.(rejection);
    } catch (error) {
      console.error("menurank: onRejection threw", error);
    }
  }

  /**
   * Sends everything waiting now (skipping the backoff after a network error, never a
   * Retry-After the daemon gave) and resolves when the queue is empty, delivery stopped, or the
   * daemon could not be reached (check `metrics`).
   */
  flush() {
    if (!this.#serverAsked) this.#notBefore = 0;
    return new Promise((resolve) => {
      this.#flushWaiters.push(resolve);
      this.#schedule();
    }).then(() => this.metrics);
  }

  #resolveFlush() {
    const waiters = this.#flushWaiters;
    this.#flushWaiters = [];
    for (const resolve of waiters) resolve();
  }

  /** The page is being hidden or left: what fits goes out now with keepalive. */
  #pageIsGoing() {
    this.#spill();
    if (this.#stopped || this.#closed || Date.now() < this.#notBefore) return;
    const batch = this.#takeBatch(this.#options.maxBatchEvents, KEEPALIVE_BYTES - this.#keepaliveBytes);
    if (batch.length > 0) this.#deliver(batch, true).then(() => this.#schedule());
  }

  #listen() {
    if (typeof addEventListener !== "function") return;
    const on = (target, type, handler) => {
      target.addEventListener(type, handler);
      this.#listeners.push(() => target.removeEventListener(type, handler));
    };
    on(globalThis, "pagehide", () => this.#pageIsGoing());
    if (typeof document !== "undefined") {
      on(document, "visibilitychange", () => {
        if (document.visibilityState === "hidden") this.#pageIsGoing();
      });
    }
    // Back online, or back from the back/forward cache: try now.
    on(globalThis, "online", () => this.flush());
    on(globalThis, "pageshow", (event) => {
      if (event.persisted) this.#schedule();
    });
  }

  // --- The spill: events recorded but not yet committed to IndexedDB when the page goes away ----
  //
  // Each page writes its own key (`menurank:NAME:spill:PAGE`), so two tabs never overwrite or
  // clear each other's; a page clears its key once what it spilled is in the journal, and a page
  // that starts moves every spill it finds into the journal (writing an entry twice keeps one).

  #pageId = uuidv7();
  #spilled = false;

  get #spillPrefix() {
    return `menurank:${this.#options.name}:spill:`;
  }

  #spill() {
    if (this.#unjournaled.size === 0 || this.#journal instanceof LocalStorageJournal) return;
    try {
      localStorage.setItem(this.#spillPrefix + this.#pageId, JSON.stringify([...this.#unjournaled.values()]));
      this.#spilled = true;
    } catch (error) {
      this.#metrics.lastError = `spill: ${error}`;
    }
  }

  /** Every page's spill: {keys, entries}. */
  #readSpills() {
    const found = { keys: [], entries: [] };
    try {
      if (typeof localStorage === "undefined") return found;
      for (let i = 0; i < localStorage.length; i++) {
        const key = localStorage.key(i);
        if (!key || !key.startsWith(this.#spillPrefix)) continue;
        found.keys.push(key);
        found.entries.push(...JSON.parse(localStorage.getItem(key) || "[]"));
      }
    } catch {
      // unreadable storage: nothing spilled that can be recovered
    }
    return found;
  }

  #clearSpills(keys) {
    try {
      for (const key of keys) localStorage.removeItem(key);
    } catch {
      // nothing to clear
    }
  }

  // --- Menus ------------------------------------------------------------------------------------

  get #menuCacheKey() {
    return `menurank:${this.#options.name}:menus`;
  }

  /**
   * The served menus (`GET /v1/menus`, the manifest's shape) with `fromCache`: sent with the ETag
   * of the last good copy (304: that copy), which is also what is returned, marked
   * `fromCache: true`, while the daemon cannot be reached or answers with an error.
   */
  async menus() {
    if (!this.#options.readKey) throw new Error("menurank: menus() needs the readKey option");
    let cached = null;
    try {
      cached = JSON.parse(localStorage.getItem(this.#menuCacheKey) || "null");
    } catch {
      cached = null;
    }
    const headers = { Authorization: `Bearer ${this.#options.readKey}` };
    if (cached && cached.etag) headers["If-None-Match"] = cached.etag;
    let response;
    try {
      response = await this.#options.fetch(`${this.#options.endpoint}/v1/menus`, {
        headers, mode: "cors", credentials: "omit", cache: "no-store",
      });
    } catch (error) {
      if (cached) return { ...cached.document, fromCache: true };
      throw new Error(`menurank: the menus could not be fetched and none is cached (${error.message || error})`);
    }
    if (response.status === 304 && cached) return { ...cached.document, fromCache: false };
    if (response.status === 200) {
      const document = await response.json();
      try {
        localStorage.setItem(this.#menuCacheKey, JSON.stringify({ etag: response.headers.get("ETag"), document }));
      } catch {
        // No storage: the copy lasts as long as the page.
      }
      return { ...document, fromCache: false };
    }
    if (cached) return { ...cached.document, fromCache: true };
    throw new Error(`menurank: GET /v1/menus answered ${response.status} ${(await errorCode(response)) || ""}`.trim());
  }

  /**
   * The menu to show for `elementType`, or null when the daemon serves none (show the app's own):
   * `{elementType, menuVersion, groups, fromCache, rollout}`. `groups` is an array of groups (draw a
   * separator between two), each an array of items: `{type: "command", id, title, destructive,
   * position}` or `{type: "submenu", title, position, items: [commands]}`. `position` is what to
   * record: the row's index in the menu as shown, counting top-level rows over all groups, and
   * for a submenu's command, its submenu's row + 1 + its index in the submenu. `rollout` is
   * `{id, arm: "rollout" | "current"}` when the element type is in a rollout: the person's arm
   * (the current layout for a client without a user). Send `menuVersion` with every event.
   */
  async layout(elementType) {
    const document = await this.menus();
    const menu = document.menus && document.menus[elementType];
    if (!menu) return null;
    let groups = menu.groups;
    let menuVersion = menu.menu_version;
    let rollout = null;
    if (menu.rollout) {
      const chosen = this.#user != null && (await inRolloutArm(menu.rollout.salt, this.#user, menu.rollout.share));
      rollout = { id: menu.rollout.id, arm: chosen ? "rollout" : "current" };
      if (chosen) {
        groups = menu.rollout.groups;
        menuVersion = menu.rollout.menu_version;
      }
    }
    return {
      elementType,
      menuVersion,
      groups: resolveGroups(groups, document.commands || {}),
      fromCache: document.fromCache,
      rollout,
    };
  }

  /** Stops timers and listeners (the journal keeps what is unsent for the next load). */
  async close() {
    this.#closed = true;
    clearTimeout(this.#timer);
    for (const remove of this.#listeners) remove();
    this.#listeners = [];
    this.#spill();
    this.#resolveFlush();
  }
}

/**
 * Served groups (ids and `{submenu, items}`, submenus possibly nested) as items with titles and
 * the positions to record: top-level rows count over all groups; a submenu's items follow its row.
 */
function resolveGroups(groups, commands) {
  const resolve = (item, position) => {
    if (typeof item === "string") {
      const info = commands[item] || {};
      return { type: "command", id: item, title: info.title || item, destructive: !!info.destructive, position };
    }
    const items = (item.items || []).map((inner, index) => resolve(inner, position + 1 + index));
    return { type: "submenu", title: item.submenu, position, items };
  };
  let row = 0;
  return (groups || []).map((group) => group.map((item) => resolve(item, row++)));
}

async function errorCode(response) {
  try {
    const body = await response.json();
    return typeof body.error === "string" ? body.error : null;
  } catch {
    return null;
  }
}

function idOf(entry) {
  return entry.key.slice(16);
}
