// The example page: a mail client's lists whose right-click opens a real context menu drawn from
// the layout menurank serves (groups between separators, a submenu), recording each pick with its
// position, latency and menu version, and each menu closed without a pick as a dismissal.
//
// Configuration from the address: ?write_key=mrk_w_...&read_key=mrk_r_...[&endpoint=URL]
// [&user=ID][&salt=TEXT]. The endpoint defaults to this page's own origin (`menurank serve
// --serve-example .` serves both); another origin must be listed with `menurank apps set APP
// --allowed-origin <this page's origin>` (and, when the daemon serves this page, given to it with
// `--example-api`, which the page's Content-Security-Policy allows to be called).
import { MenurankClient } from "./menurank.js";

const parameters = new URLSearchParams(location.search);
const endpoint = parameters.get("endpoint") || location.origin;
const statusLine = document.getElementById("status");
const activity = document.getElementById("activity");
const queueLine = document.getElementById("queue");
const menuLayer = document.getElementById("menus");

/** What the page did, for people (the lists on the page) and for its browser tests. */
const example = {
  client: null,
  /** Every request to the daemon: {method, path, events, status, retryAfter, at, error}. */
  requests: [],
  /** Every pick and dismissal recorded: {id, elementType, command, position, latencyMs, menuVersion}. */
  recorded: [],
  /** The layouts shown, by element type (with fromCache). */
  layouts: {},
  ready: null,
};
window.menurankExample = example;

/** The page's fetch: the browser's, with each request noted in `example.requests`. */
async function loggingFetch(url, init = {}) {
  const note = { method: init.method || "GET", path: new URL(url).pathname, at: Date.now() };
  if (typeof init.body === "string") note.events = (init.body.match(/"id":/g) || []).length;
  example.requests.push(note);
  try {
    const response = await fetch(url, init);
    note.status = response.status;
    note.retryAfter = response.headers.get("Retry-After");
    return response;
  } catch (error) {
    note.error = String(error.message || error);
    throw error;
  } finally {
    showQueue();
  }
}

/** A stable pseudonymous person for the demo: a random id kept in this browser. */
function demoUser() {
  let id = parameters.get("user") || localStorage.getItem("menurank-example:user");
  if (!id) {
    id = `demo-${crypto.getRandomValues(new Uint32Array(2)).join("")}`;
    localStorage.setItem("menurank-example:user", id);
  }
  return id;
}

async function start() {
  const writeKey = parameters.get("write_key");
  const readKey = parameters.get("read_key");
  if (!writeKey || !readKey) {
    setStatus("Open this page with ?write_key=…&read_key=… (menurank apps create prints them).", true);
    return;
  }
  example.client = await MenurankClient.create({
    endpoint, writeKey, readKey,
    userId: demoUser(),
    salt: parameters.get("salt") || "menurank-example",
    name: parameters.get("journal") || "example",
    context: { appVersion: "1.0.0", platform: "web", locale: navigator.language },
    fetch: loggingFetch,
    onRejection: (rejection) => note(`rejected ${rejection.id}: ${rejection.code}`, "dismissed"),
    onDeliveryStopped: (status, code) => setStatus(`Delivery stopped: ${status} ${code || ""} (check the keys).`, true),
  });
  await refreshLayouts();
  for (const list of document.querySelectorAll(".items")) wireList(list);
  showQueue();
  setInterval(showQueue, 1000);
}

/** Fetches the served layouts of the element types on the page (or keeps the last good copy). */
async function refreshLayouts() {
  const types = [...document.querySelectorAll(".items")].map((list) => list.dataset.elementType);
  try {
    for (const type of types) example.layouts[type] = await example.client.layout(type);
    const cached = Object.values(example.layouts).some((layout) => layout && layout.fromCache);
    setStatus(cached ? "menurank is unreachable: showing the last menus it served." : `Menus served by ${endpoint}.`, cached);
  } catch (error) {
    setStatus(`No served menus (${error.message}); right-click shows the browser's own menu.`, true);
  }
}

function setStatus(text, warning = false) {
  statusLine.textContent = text;
  statusLine.classList.toggle("warning", warning);
}

function note(text, className) {
  const item = document.createElement("li");
  item.textContent = text;
  if (className) item.className = className;
  activity.prepend(item);
  while (activity.children.length > 30) activity.lastElementChild.remove();
  showQueue();
}

function showQueue() {
  if (!example.client) return;
  const metrics = example.client.metrics;
  queueLine.textContent = `Waiting to be sent: ${metrics.queued} · sent: ${metrics.sent}`
    + (metrics.lastError ? ` · last problem: ${metrics.lastError}` : "");
}

// ---------------------------------------------------------------------------------------------
// The context menu

/** The open menu: {elementType, layout, target, openedAt, trigger, root, submenu}; null when closed. */
let open = null;

function wireList(list) {
  list.addEventListener("contextmenu", (event) => {
    const target = event.target.closest("li");
    const layout = example.layouts[list.dataset.elementType];
    if (!target || !layout) return; // no served layout: the browser's own menu
    event.preventDefault();
    openMenu(list.dataset.elementType, layout, target, event.clientX, event.clientY, "right_click");
  });
  list.addEventListener("keydown", (event) => {
    if (event.key === "ContextMenu" || (event.key === "F10" && event.shiftKey)) {
      const target = event.target.closest("li");
      const layout = example.layouts[list.dataset.elementType];
      if (!target || !layout) return;
      event.preventDefault();
      const box = target.getBoundingClientRect();
      openMenu(list.dataset.elementType, layout, target, box.left + 24, box.bottom - 4, "keyboard");
    }
  });
}

function openMenu(elementType, layout, target, x, y, trigger) {
  closeMenu("replaced");
  target.classList.add("target");
  const root = buildMenu(layout.groups, 0);
  menuLayer.append(root);
  place(root, x, y);
  open = { elementType, layout, target, trigger, root, submenu: null, openedAt: performance.now() };
  focusItem(root, 0);
}

/** A menu element for `groups` (arrays of items); a separator between two groups. */
function buildMenu(groups, depth) {
  const menu = document.createElement("div");
  menu.className = "menu";
  menu.setAttribute("role", "menu");
  menu.dataset.depth = String(depth);
  groups.forEach((group, index) => {
    if (index > 0) {
      const separator = document.createElement("div");
      separator.setAttribute("role", "separator");
      menu.append(separator);
    }
    for (const item of group) menu.append(buildItem(item, depth));
  });
  menu.addEventListener("keydown", onMenuKey);
  return menu;
}

function buildItem(item, depth) {
  const row = document.createElement("button");
  row.type = "button";
  row.setAttribute("role", "menuitem");
  row.tabIndex = -1;
  row.dataset.position = String(item.position);
  const title = document.createElement("span");
  title.textContent = item.title;
  row.append(title);
  if (item.type === "submenu") {
    row.setAttribute("aria-haspopup", "menu");
    row.setAttribute("aria-expanded", "false");
    row.dataset.submenu = item.title;
    const chevron = document.createElement("span");
    chevron.className = "chevron";
    chevron.textContent = "›";
    row.append(chevron);
    row.addEventListener("click", () => openSubmenu(row, item, depth));
    row.addEventListener("pointerenter", () => openSubmenu(row, item, depth));
  } else {
    row.dataset.command = item.id;
    if (item.destructive) row.classList.add("destructive");
    row.addEventListener("click", () => pick(item));
    row.addEventListener("pointerenter", () => {
      if (depth === 0) closeSubmenu();
      row.focus();
    });
  }
  return row;
}

function openSubmenu(row, item, depth) {
  if (!open) return;
  if (open.submenu && open.submenu.owner === row) return;
  closeSubmenu();
  const menu = buildMenu([item.items], depth + 1);
  menuLayer.append(menu);
  placeSubmenu(menu, row.getBoundingClientRect());
  row.setAttribute("aria-expanded", "true");
  open.submenu = { owner: row, menu };
}

function closeSubmenu() {
  if (!open || !open.submenu) return;
  open.submenu.owner.setAttribute("aria-expanded", "false");
  open.submenu.menu.remove();
  open.submenu = null;
}

/** Puts `menu` at (x, y), inside the window: left of `flipX` when it does not fit on the right. */
function place(menu, x, y, flipX = x) {
  const margin = 8;
  const width = menu.offsetWidth;
  const height = menu.offsetHeight;
  let left = x + width + margin > innerWidth ? flipX - width : x;
  let top = y + height + margin > innerHeight ? innerHeight - height - margin : y;
  left = Math.max(margin, Math.min(left, innerWidth - width - margin));
  top = Math.max(margin, top);
  menu.style.left = `${left}px`;
  menu.style.top = `${top}px`;
}

/**
 * A submenu goes right of its row, else left of the menu; where neither side has room (a phone),
 * it opens below its row, indented, so the row's title stays readable.
 */
function placeSubmenu(menu, row) {
  const margin = 8;
  const width = menu.offsetWidth;
  const parent = open.root.getBoundingClientRect();
  if (parent.right - 4 + width + margin <= innerWidth) return place(menu, parent.right - 4, row.top - 4);
  if (parent.left + 4 - width >= margin) return place(menu, parent.left + 4 - width, row.top - 4);
  place(menu, row.left + 24, row.bottom - 2);
}

function focusItem(menu, index) {
  const rows = [...menu.querySelectorAll('[role="menuitem"]')];
  if (rows.length === 0) return;
  rows[(index + rows.length) % rows.length].focus();
}

function onMenuKey(event) {
  const menu = event.currentTarget;
  const rows = [...menu.querySelectorAll('[role="menuitem"]')];
  const index = rows.indexOf(document.activeElement);
  switch (event.key) {
    case "ArrowDown": focusItem(menu, index + 1); break;
    case "ArrowUp": focusItem(menu, index - 1); break;
    case "Home": focusItem(menu, 0); break;
    case "End": focusItem(menu, -1); break;
    case "ArrowRight":
      if (rows[index] && rows[index].dataset.submenu) {
        rows[index].click();
        focusItem(open.submenu.menu, 0);
      }
      break;
    case "ArrowLeft":
      if (menu.dataset.depth !== "0" && open && open.submenu) {
        const owner = open.submenu.owner;
        closeSubmenu();
        owner.focus();
      }
      break;
    case "Escape": closeMenu("escape"); break;
    case "Tab": closeMenu("tab"); break;
    default: return;
  }
  event.preventDefault();
  event.stopPropagation();
}

/** A command picked: recorded with its position as shown, the time since the menu opened and the layout's version. */
function pick(item) {
  if (!open) return;
  const { elementType, layout, target, trigger, openedAt } = open;
  const latencyMs = Math.round(performance.now() - openedAt);
  const id = example.client.record({
    elementType, command: item.id, position: item.position, latencyMs, menuVersion: layout.menuVersion, trigger,
  });
  example.recorded.push({ id, elementType, command: item.id, position: item.position, latencyMs, menuVersion: layout.menuVersion });
  note(`${item.title}: “${target.dataset.name}” (row ${item.position}, ${latencyMs} ms)`);
  open = null;
  teardown(target);
  target.focus();
}

/** The menu closes without a pick: a dismissal, unless another menu replaces it at once. */
function closeMenu(reason) {
  if (!open) return;
  const { elementType, layout, target, trigger, openedAt } = open;
  open = null;
  teardown(target);
  const latencyMs = Math.round(performance.now() - openedAt);
  const id = example.client.dismiss({ elementType, latencyMs, menuVersion: layout.menuVersion, trigger });
  example.recorded.push({ id, elementType, command: null, position: null, latencyMs, menuVersion: layout.menuVersion });
  note(`menu closed without a pick (${reason}, ${latencyMs} ms)`, "dismissed");
  if (reason === "escape") target.focus();
}

function teardown(target) {
  target.classList.remove("target");
  menuLayer.replaceChildren();
}

// A press outside the menu, scrolling, resizing or leaving the window closes it.
document.addEventListener("pointerdown", (event) => {
  if (open && !event.target.closest(".menu")) closeMenu("outside");
}, true);
addEventListener("resize", () => closeMenu("resize"));
addEventListener("blur", () => closeMenu("blur"));
document.addEventListener("scroll", () => closeMenu("scroll"), true);

example.ready = start().catch((error) => setStatus(`Could not start: ${error.message}`, true));
