/* waypoint-web: the page's state, its small DOM helpers and its one way to the server.
 *
 * Screen readers: numbers that change several times a second are written to plain text (no
 * aria-live), and only events (on target, arrived, GPS lost, results of actions) go to the
 * two live regions, through one queue (say, shout). An action's answer is also written beside
 * its control (answerBeside), where a person who pressed it looks.
 */
import { createTargetTracker, isNum, phoneWords, sentence } from './words.js';


export const $ = (id) => document.getElementById(id);
export const AUTO = { auto: true };
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const NOT_PAIRED = 'This phone is not paired with the Pi yet.';
export const DAEMON_DOWN = 'The navigation service on the Pi is not answering.';

export const app = {
  paired: null,          // unknown until the first answer of the server
  status: null,          // the latest STATUS
  recent: [],
  places: [],
  paused: false,
  events: null,          // the EventSource
  connectionLost: false,
  daemonDown: false,
  ownChanges: [],        // the ids of our own latest requests (see changeId)
  tracker: createTargetTracker(),
  intervalTimer: null,
  calibration: null,     // the latest CALIBRATION
  calibrationTimer: null,
  map: null,
  layers: null,
  chosen: null,          // the point tapped on the map
  trailTimer: null,
  reconnectedAt: 0,      // when the page last asked again after its stream was refused
};

/**
 * Our own changes are marked, not guessed: each request carries an id (X-Change-Id), and the
 * server sends the STATUS that follows a change it made with that id in `change`, before any
 * other STATUS showing the change. A STATUS marked with one of ours is not announced again: the
 * action's own answer says it. The last few ids are kept; an id not echoed (a question) is simply
 * forgotten.
 */
let changeCount = 0;
function changeId() {
  changeCount += 1;
  const id = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}-${changeCount}`;
  app.ownChanges = [...app.ownChanges.slice(-15), id];
  return id;
}

/** Whether a STATUS is the one after a change this page asked for. */
export const isOwnChange = (s) => Boolean(s && s.change && app.ownChanges.includes(s.change));

/** Hooks the page's other parts fill in: what a 401 shows. */
export const hooks = { notPaired: () => {} };

/** `JSON.parse`, or null for text that is not JSON. */
export function parse(text) { try { return JSON.parse(text); } catch (e) { return null; } }

/** The wearer's position from the latest STATUS, or null. */
export const here = () => {
  const f = app.status && app.status.fix;
  return f && isNum(f.lat) && isNum(f.lon) ? f : null;
};

// Settings survive a reload; private browsing may refuse storage, then they last a visit.
export const store = {
  get(key, fallback) {
    try { const v = localStorage.getItem(`waypoint.${key}`); return v === null ? fallback : JSON.parse(v); } catch (e) { return fallback; }
  },
  set(key, value) {
    try { localStorage.setItem(`waypoint.${key}`, JSON.stringify(value)); } catch (e) { /* kept for this visit */ }
  },
};

// ------------------------------------------------------------------ small DOM helpers

export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Writes text only when it changed: a screen reader on that element is not disturbed. */
export function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

export function button(text, onClick, className) {
  const b = el('button', className, text);
  b.type = 'button';
  b.addEventListener('click', onClick);
  return b;
}

// ------------------------------------------------------------------ announcements

/**
 * One queue for the polite region. A message stays until it has had time to be read
 * (readingMs) before the next replaces it: two written at the same instant cut the first short
 * ("Connected to the Pi again." and "On target."). A message with a key replaces one of that
 * key still waiting (the distance said every 10 s never piles up); the answer to what the user
 * did goes first and drops the automatic messages waiting; an automatic message that was just
 * said is not said again. The assertive region (arrival, errors) cuts in at once, and polite
 * messages wait for it. At most MAX_WAITING wait; the oldest go first.
 */
const MAX_WAITING = 4;
const polite = { waiting: [], busyUntil: 0, timer: null, last: '', lastAt: -Infinity };

/** How long a message takes to be read aloud: about 15 characters a second, and a pause. */
export const readingMs = (text) => Math.min(8000, 1200 + 60 * String(text).length);

function pump() {
  clearTimeout(polite.timer);
  polite.timer = null;
  while (polite.waiting.length) {
    const now = Date.now();
    if (now < polite.busyUntil) { polite.timer = setTimeout(pump, polite.busyUntil - now); return; }
    const message = polite.waiting.shift();
    if (message.auto && message.text === polite.last && now - polite.lastAt < 10000) continue;
    // A new <p>: announced even when the text repeats the last one.
    $('status-region').replaceChildren(el('p', '', message.text));
    polite.last = message.text;
    polite.lastAt = now;
    polite.busyUntil = now + readingMs(message.text);
  }
}

/** Says `text` in the polite region: `auto` for what the page says by itself (paused with
 *  the announcements unless `evenPaused`: the connection's loss and return), `key` for a
 *  message a newer one of its kind replaces. */
export function say(text, { auto = false, key = null, evenPaused = false } = {}) {
  if (auto && app.paused && !evenPaused) return;
  if (!auto) {
    polite.waiting = polite.waiting.filter((m) => !m.auto);
    polite.busyUntil = 0;
  }
  if (key) polite.waiting = polite.waiting.filter((m) => m.key !== key);
  polite.waiting.push({ text, auto, key });
  polite.waiting.splice(0, Math.max(0, polite.waiting.length - MAX_WAITING));
  pump();
}

/** The assertive region: arrival and errors only. An error already shown next to its field
 *  is still announced here, but not shown twice. */
export function shout(text, { shown = false } = {}) {
  const words = sentence(text);
  $('alert-region').replaceChildren(el('p', shown ? 'visually-hidden' : '', words));
  polite.busyUntil = Math.max(polite.busyUntil, Date.now() + readingMs(words));
  pump();
}

/** A new action starts with an empty alert region, and nothing automatic waiting: an old
 *  message must not look like its answer. */
export function clearMessages() {
  $('alert-region').replaceChildren();
  polite.waiting = polite.waiting.filter((m) => !m.auto);
}

// ------------------------------------------------------------------ answers beside controls

let answerCount = 0;

/** The element beside `control` that holds its answers, made once, after the row of buttons
 *  the control is in, and named by the control's aria-describedby. */
function answerNode(control) {
  if (!control.id) { answerCount += 1; control.id = `control-${answerCount}`; }
  const id = `${control.id}-answer`;
  let node = document.getElementById(id);
  if (!node) {
    node = el('p', 'answer');
    node.id = id;
    (control.closest('.button-row') || control).after(node);
  }
  const described = (control.getAttribute('aria-describedby') || '').split(' ').filter(Boolean);
  if (!described.includes(id)) control.setAttribute('aria-describedby', [...described, id].join(' '));
  return node;
}

/** Writes the answer to `control`'s action beside it ('' clears it). */
export function answerBeside(control, text, { error = false } = {}) {
  const node = answerNode(control);
  node.textContent = text ? sentence(text) : '';
  node.classList.toggle('field-error', error);
}

/** A field's error: shown under it (in its error element), marked invalid, announced, focused. */
export function showFieldError(fieldId, errorId, message) {
  $(errorId).textContent = sentence(phoneWords(message));
  $(fieldId).setAttribute('aria-invalid', 'true');
  shout(message, { shown: true });
  $(fieldId).focus();
}

export function clearFieldError(fieldId, errorId) {
  $(errorId).textContent = '';
  $(fieldId).removeAttribute('aria-invalid');
}

// ------------------------------------------------------------------ talking to the server

class ApiError extends Error {
  constructor(message, status, data = null) { super(message); this.status = status; this.data = data; }
}

/** Changes go to the server one at a time, in the order they were made: two quick taps are
 *  carried out as tapped, whatever the network does with two requests at once. */
let changes = Promise.resolve();

/** One call to the server: its JSON (or with `text`, its body as text); a 401 shows the
 *  not-paired notice; every failure throws an ApiError with a sentence and the HTTP status. */
export function api(path, options = {}) {
  if ((options.method || 'GET') === 'GET') return send(path, options);
  const turn = changes.then(() => send(path, options));
  changes = turn.catch(() => {});
  return turn;
}

async function send(path, { method = 'GET', json, body, headers = {}, text = false } = {}) {
  const init = { method, credentials: 'same-origin', headers: { Accept: 'application/json', ...headers } };
  if (method === 'POST') init.headers['X-Change-Id'] = changeId();
  if (json !== undefined) {
    init.body = JSON.stringify(json);
    init.headers['Content-Type'] = 'application/json';
  } else if (body !== undefined) {
    init.body = body;
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    throw new ApiError('The Pi did not answer: check that this phone is on the same network as the Pi.', 0);
  }
  let raw = '';
  try { raw = await response.text(); } catch (e) { /* no body: the status says enough */ }
  const data = parse(raw); // null when not JSON
  if (response.status === 401) {
    hooks.notPaired();
    throw new ApiError((data && data.error) || NOT_PAIRED, 401);
  }
  if (!response.ok) {
    const message = data && (data.message || data.error);
    throw new ApiError(phoneWords(message || `The Pi answered with an error (HTTP ${response.status}).`), response.status, data);
  }
  return text ? raw : data;
}

/** One control request, as on the daemon's socket; 422 carries the daemon's sentence. */
export const request = (object) => api('/api/request', { method: 'POST', json: object });

/** Runs an action from a control: its error goes to onError(message, error), else beside the
 *  control and to the alert region (a 401 has already shown the not-paired notice); a busy
 *  control ignores taps. */
export async function act(control, action, onError) {
  if (control && control.getAttribute('aria-disabled') === 'true') return;
  if (control) {
    control.setAttribute('aria-disabled', 'true');
    if (!onError) answerBeside(control, '');
  }
  clearMessages();
  try {
    await action();
  } catch (e) {
    if (e.status === 401) return;
    const message = phoneWords(e.message || String(e));
    if (onError) onError(message, e);
    else if (control) {
      answerBeside(control, message, { error: true });
      shout(message, { shown: true });
    } else {
      shout(message);
    }
  } finally {
    if (control) control.removeAttribute('aria-disabled');
  }
}

export function onClick(id, action) {
  const control = $(id);
  control.addEventListener('click', () => act(control, action));
}
