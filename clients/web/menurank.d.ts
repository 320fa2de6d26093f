// Type declarations for menurank.js, the browser client of menurank (hand-written; the module
// itself is plain JavaScript with no dependencies).

/** Context members every event carries (the event's own values win). */
export interface MenurankContext {
  /** Dotted numbers first, such as "4.10.2": what `--min-app-version` filters on. */
  appVersion?: string;
  /** Such as "web" or "Electron 33": what `--platform` filters on. */
  platform?: string;
  locale?: string;
  /** True from development and staging builds: left out of ranking unless asked. */
  isTest?: boolean;
}

export interface MenurankOptions {
  /** The daemon's URL, such as "https://menurank.example.com" (its origin must allow this page's). */
  endpoint: string;
  /** The app's write key. Public by nature in a web page: it can only add events to its app. */
  writeKey: string;
  /** The app's read key, for menus() and layout(). */
  readKey?: string;
  /** The person's account id: hashed on the device with `salt` (HMAC-SHA-256), never sent. */
  userId?: string;
  /** An id already hashed by the app, sent as it is (instead of userId). */
  user?: string;
  /** The app's salt for hashing user ids (the same on every device). */
  salt?: string;
  context?: MenurankContext;
  /** The journal's name: one per app (and per endpoint) in a browser profile. Default "default". */
  name?: string;
  /** A batch goes out when it holds this many events (500)... */
  maxBatchEvents?: number;
  /** ...or this many bytes of JSON (512 KiB)... */
  maxBatchBytes?: number;
  /** ...or when its oldest event has waited this long (5000 ms). */
  maxBatchAgeMs?: number;
  /** Backoff: full jitter between 0 and minimumBackoffMs * 2^attempt (500 ms), at most maximumBackoffMs (60 s). */
  minimumBackoffMs?: number;
  maximumBackoffMs?: number;
  /** The longest Retry-After obeyed (1 h). */
  maximumRetryAfterMs?: number;
  /** Past this many events waiting, the oldest are dropped (and counted). Default 20000. */
  maxJournalEvents?: number;
  requestTimeoutMs?: number;
  /** Use localStorage for the journal even where IndexedDB exists. */
  forceLocalStorage?: boolean;
  /** Told of each event the daemon refuses (it is dropped, never retried). */
  onRejection?: (rejection: MenurankRejection) => void;
  /** Told when the daemon refuses the key or the endpoint (401, 403, 404, 405, 415): delivery stops. */
  onDeliveryStopped?: (status: number, code: string | null) => void;
  /** The fetch function to send with (the page's own by default). */
  fetch?: typeof fetch;
}

export interface MenurankRejection {
  index: number;
  id: string;
  code: string;
  message: string;
}

export interface Pick {
  elementType: string;
  command: string;
  /** The row's index in the menu as shown (layout() gives it as `position`). */
  position?: number;
  /** Milliseconds from the menu opening to the pick. */
  latencyMs?: number;
  /** The shown layout's menuVersion. */
  menuVersion?: string;
  /** How the menu was opened, such as "right_click", "long_press" or "keyboard". */
  trigger?: string;
  session?: string;
  /** The time of the pick (now by default). */
  time?: Date;
}

export interface Dismissal {
  elementType: string;
  latencyMs?: number;
  menuVersion?: string;
  trigger?: string;
  session?: string;
  time?: Date;
}

export interface MenurankMetrics {
  /** Events in the journal, waiting for an acknowledgement. */
  queued: number;
  sent: number;
  duplicates: number;
  rejected: number;
  dropped: number;
  retries: number;
  lastError: string | null;
  deliveryStopped: boolean;
}

export interface MenuCommandItem {
  type: "command";
  /** The id to record as `command`. */
  id: string;
  title: string;
  destructive: boolean;
  /** What to record as `position`. */
  position: number;
}

export interface MenuSubmenuItem {
  type: "submenu";
  title: string;
  position: number;
  items: MenuItem[];
}

export type MenuItem = MenuCommandItem | MenuSubmenuItem;

export interface MenuLayout {
  elementType: string;
  /** Send it with every event of this menu. */
  menuVersion: string;
  /** Groups, with a separator between two. */
  groups: MenuItem[][];
  /** True when the daemon could not be reached and this is the last copy it served. */
  fromCache: boolean;
  /** The person's arm when the element type is in a rollout. */
  rollout: { id: number; arm: "rollout" | "current" } | null;
}

/** GET /v1/menus as served (the manifest's shape), with fromCache. */
export interface ServedMenus {
  app: string;
  version: string;
  commands: Record<string, { title: string; destructive?: boolean; pinned?: boolean; keep?: boolean; category?: string }>;
  menus: Record<string, {
    menu_version: string;
    groups: unknown[][];
    edit_menu?: boolean;
    preview?: boolean;
    rollout?: { id: number; salt: string; share: number; groups: unknown[][]; menu_version: string };
  }>;
  fromCache: boolean;
}

export class MenurankClient {
  /** Makes a client, hashes the user and loads the journal (what earlier loads left is sent). */
  static create(options: MenurankOptions): Promise<MenurankClient>;
  private constructor(options: MenurankOptions);
  /** Sets the person from now on; resolves with the hash that events carry. */
  identify(userId: string): Promise<string>;
  /** The hash events carry as `user`, or null. */
  readonly user: string | null;
  readonly metrics: MenurankMetrics;
  /** Records a pick; returns its event id. Never touches the network. */
  record(pick: Pick): string;
  /** Records a menu closed without a pick; returns its event id. */
  dismiss(dismissal: Dismissal): string;
  /** Sends what is waiting now; resolves once it is acknowledged, delivery stopped, or the daemon must be waited for. */
  flush(): Promise<MenurankMetrics>;
  menus(): Promise<ServedMenus>;
  /** The menu to show for an element type, or null when the daemon serves none. */
  layout(elementType: string): Promise<MenuLayout | null>;
  /** Stops timers and listeners; the journal keeps what is unsent. */
  close(): Promise<void>;
}

/** HMAC-SHA-256 of the id under the salt, as hex: what `user` carries. */
export function hashUser(id: string, salt: string): Promise<string>;
/** Whether `user` falls in a rollout's new arm (shared-contracts.md). */
export function inRolloutArm(salt: string, user: string, share: number): Promise<boolean>;
export function uuidv7(now?: number): string;
export function classifyStatus(status: number): "acknowledged" | "split" | "stop" | "retry";
export function backoffDelay(
  attempt: number, retryAfterMs: number | null,
  options: { minimumBackoffMs: number; maximumBackoffMs: number; maximumRetryAfterMs: number }, unit?: number,
): number;
export function parseRetryAfter(value: string | null, now?: number): number | null;
