/* waypoint-web: the page's state, its small DOM helpers and its one way to the server.
 *
 * Screen readers: numbers that change several times a second are written to plain text (no
 * aria-live), and only events (on target, arrived, GPS lost, results of actions) go to the
 * two live regions, one message at a time.
 */
import { createTargetTracker, isNum, sentence } from './words.js';


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

/** The polite region: one message at a time; a new <p> is announced even if the text repeats. */
export function say(text, { auto = false } = {}) {
  if (auto && app.paused) return;
  $('status-region').replaceChildren(el('p', '', text));
}

/** The assertive region: arrival and errors only. An error already shown next to its field
 *  is still announced here, but not shown twice. */
export function shout(text, { shown = false } = {}) {
  $('alert-region').replaceChildren(el('p', shown ? 'visually-hidden' : '', sentence(text)));
}

/** A new action starts with empty regions: an old message must not look like its answer. */
export const clearMessages = () => { $('alert-region').replaceChildren(); $('status-region').replaceChildren(); };

/** A field's error: shown under it (in its error element), marked invalid, announced, focused. */
export function showFieldError(fieldId, errorId, message) {
  $(errorId).textContent = sentence(message);
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
  constructor(message, status) { super(message); this.status = status; }
}

/** One call to the server: its JSON (or with `text`, its body as text); a 401 shows the
 *  not-paired notice; every failure throws an ApiError with a sentence and the HTTP status. */
export async function api(path, { method = 'GET', json, body, headers = {}, text = false } = {}) {
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
    throw new ApiError(message || `The Pi answered with an error (HTTP ${response.status}).`, response.status);
  }
  return text ? raw : data;
}

/** One control request, as on the daemon's socket; 422 carries the daemon's sentence. */
export const request = (object) => api('/api/request', { method: 'POST', json: object });

/** Runs an action from a control: errors go to onError, else to the alert region (a 401 has
 *  already shown the not-paired notice); a busy control ignores taps. */
export async function act(control, action, onError) {
  if (control && control.getAttribute('aria-disabled') === 'true') return;
  if (control) control.setAttribute('aria-disabled', 'true');
  clearMessages();
  try {
    await action();
  } catch (e) {
    if (e.status === 401) return;
    if (onError) onError(e);
    else shout(e.message || String(e));
  } finally {
    if (control) control.removeAttribute('aria-disabled');
  }
}

export function onClick(id, action) {
  const control = $(id);
  control.addEventListener('click', () => act(control, action));
}
