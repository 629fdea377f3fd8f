/* waypoint-web: going places: the recent destinations and the named places, kept up to date
 * without replacing what the user may be about to press, and saving this spot. */
import {
  $, act, answerBeside, app, button, clearFieldError, el, here, request, say, setText, showFieldError, sleep,
} from './page.js';
import { distanceAndDirection, formatDMS, formatDistance, isNum, spokenPlaceName } from './words.js';

/** Sets a destination and says where it is from here. */
export async function goTo(req, name, lat, lon) {
  await request(req);
  const where = distanceAndDirection(here(), lat, lon);
  say(`Guiding to ${name}${where ? `, ${where}` : ''}.`);
}

let recentTimer = null;
export function refreshRecentSoon() {
  clearTimeout(recentTimer);
  recentTimer = setTimeout(() => loadRecent().catch(() => {}), 500);
}

export async function loadRecent() {
  const reply = await request({ cmd: 'recent' });
  app.recent = reply.destinations || [];
  renderRecent();
}

export async function loadPlaces(focusKey) {
  const reply = await request({ cmd: 'place', action: 'list' });
  app.places = reply.places || [];
  renderPlaces(focusKey);
  renderRecent(); // its names are told apart from the places' names
}

export function loadLists() {
  loadRecent().catch((e) => listError('recent-list', e));
  loadPlaces().catch((e) => listError('places-list', e));
}

function listError(id, e) {
  if (e.status !== 401) $(id).replaceChildren(el('li', 'item empty', `Could not load the list: ${e.message}`));
}

/** A list item: the place's name, how far it is (kept up to date), then its buttons. An
 *  unnamed place shows its position on a line of its own, out of its buttons' names. */
function itemHead(title, lat, lon, showPosition = false) {
  const li = el('li', 'item');
  const head = el('p', 'item-title', title);
  const distance = el('span', 'item-distance');
  distance.dataset.lat = lat;
  distance.dataset.lon = lon;
  head.append(' ', distance);
  li.append(head);
  if (showPosition) li.append(el('p', 'hint', formatDMS(lat, lon)));
  return li;
}

let distancesFrom = null; // the position the lists' distances were last worked out from

/** Brings the lists' distances up to date; only when the position moved, unless `force`
 *  (new items). */
export function updateDistances(force = false) {
  const from = here();
  const key = from ? `${from.lat},${from.lon}` : '';
  if (!force && key === distancesFrom) return;
  distancesFrom = key;
  for (const node of document.querySelectorAll('.item-distance')) {
    const where = distanceAndDirection(from, parseFloat(node.dataset.lat), parseFloat(node.dataset.lon));
    setText(node, where ? `(${where})` : '');
  }
}

/**
 * Shows a list's items, reusing the <li> of an item whose key is unchanged, so that a refresh
 * after a STATUS replaces nothing the user may be about to press. If focus was inside and its
 * control is gone, it goes to the control whose data-focus is `preferKey` (the place an action
 * just changed), else to the control of the same place, else to the list's heading.
 */
function showItems(list, entries, fallback, preferKey) {
  const old = new Map(Array.from(list.children, (li) => [li.dataset.key, li]));
  const items = entries.map(([key, make]) => {
    const li = old.get(key) || make();
    li.dataset.key = key;
    return li;
  });
  if (items.length === list.children.length && items.every((li, i) => li === list.children[i])) return;
  const active = document.activeElement;
  const focusKey = active && list.contains(active) ? active.dataset.focus || '' : null;
  list.replaceChildren(...items);
  if (focusKey !== null) {
    // A control moved by replaceChildren has lost focus: it gets it back.
    const control = (key) => key && list.querySelector(`[data-focus="${CSS.escape(key)}"]`);
    const again = list.contains(active) ? active : control(preferKey) || control(focusKey) || fallback;
    again.focus({ preventScroll: true }); // the list changed, not the user's place
  }
  updateDistances(true);
}

const emptyItem = (text) => ['empty', () => el('li', 'item empty', text)];

function renderRecent() {
  // Button names must be unique on the page: a recent place named like a saved one, or like
  // another recent one (two unnamed places), gets its number.
  const taken = new Set(app.places.map((p) => p.name.toLowerCase()));
  const entries = app.recent.map((d, i) => {
    const name = spokenPlaceName(d);
    const label = taken.has(name.toLowerCase()) || !d.name ? `${name} (recent ${i + 1})` : name;
    taken.add(name.toLowerCase());
    return [JSON.stringify([d.lat, d.lon, name, label]), () => recentItem(d, name, label)];
  });
  showItems($('recent-list'), entries.length ? entries : [emptyItem('No recent destinations yet.')], $('recent-heading'));
}

/**
 * A recent destination's buttons name it by its place, never by its number in the list: the
 * list moves (a go puts a place first, a removal closes the gap), so a number read when the
 * button was drawn, or asked again when it was pressed, may be another place's by the time the
 * request arrives (issue 38: two quick taps guided to a third place).
 */
function recentItem(d, name, label) {
  const li = itemHead(name, d.lat, d.lon, !d.name);
  const row = el('div', 'button-row');
  const go = button(`Go to ${label}`, () => act(go, () => goTo({ cmd: 'go', lat: d.lat, lon: d.lon, name: d.name || undefined }, name, d.lat, d.lon)));
  go.dataset.focus = `recent:${label}`; // the label: unique in the list, unlike the name
  const forget = button(`Remove ${label} from recent`, () => act(forget, async () => {
    await request({ cmd: 'recent', action: 'remove', lat: d.lat, lon: d.lon });
    say(`${name} removed from the recent destinations.`);
    await loadRecent(); // its item is gone: showItems moves focus to the heading
  }));
  row.append(go, forget);
  li.append(row);
  return li;
}

function renderPlaces(focusKey) {
  const entries = app.places.map((p) => [JSON.stringify(p), () => placeItem(p)]);
  showItems($('places-list'), entries.length ? entries
    : [emptyItem('No named places yet. Save this spot below, or choose a point on the map.')],
  $('named-heading'), focusKey);
}

let uniqueId = 0; // for the ids that tie each rename field to its label

/** One named place: go, rename (an inline form) and remove (with a confirmation). */
function placeItem(p) {
  const li = itemHead(p.name, p.lat, p.lon);
  const row = el('div', 'button-row');
  const go = button(`Go to ${p.name}`, () => act(go, () => goTo({ cmd: 'go', place: p.name }, p.name, p.lat, p.lon)));
  go.dataset.focus = `go:${p.name}`;
  const rename = button(`Rename ${p.name}`, () => open(form, rename, input));
  const remove = button(`Remove ${p.name}`, () => open(confirm, remove, yes));
  for (const b of [rename, remove]) b.setAttribute('aria-expanded', 'false');
  row.append(go, rename, remove);

  const form = el('form', 'inline-form stack');
  form.hidden = true;
  form.noValidate = true;
  const input = el('input');
  input.type = 'text';
  input.id = `rename-${uniqueId += 1}`;
  input.autocomplete = 'off';
  input.value = p.name;
  const label = el('label', '', `New name for ${p.name}`);
  label.htmlFor = input.id;
  // Its error under it, as the page's other fields have theirs.
  const error = el('p', 'field-error');
  error.id = `${input.id}-error`;
  input.setAttribute('aria-describedby', error.id);
  input.addEventListener('input', () => clearFieldError(input.id, error.id));
  const formRow = el('div', 'button-row');
  const save = el('button', '', `Save the new name for ${p.name}`);
  save.type = 'submit';
  formRow.append(save, button(`Cancel renaming ${p.name}`, () => close(form, rename), 'secondary'));
  form.append(label, input, error, formRow);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    act(save, async () => {
      const to = input.value.trim();
      if (!to) throw new Error('Type the new name first.');
      await request({ cmd: 'place', action: 'rename', name: p.name, to });
      say(`${p.name} renamed to ${to}.`);
      await loadPlaces(`go:${to}`);
    }, (message) => showFieldError(input.id, error.id, message));
  });

  const confirm = el('div', 'confirm');
  confirm.hidden = true;
  const yes = button(`Yes, remove ${p.name}`, () => act(yes, async () => {
    await request({ cmd: 'place', action: 'remove', name: p.name });
    say(`${p.name} removed.`);
    await loadPlaces(); // its item is gone: showItems moves focus to the heading
  }));
  const confirmRow = el('div', 'button-row');
  confirmRow.append(yes, button(`Keep ${p.name}`, () => close(confirm, remove), 'secondary'));
  confirm.append(el('p', '', `Remove ${p.name} from your places?`), confirmRow);

  li.append(row, form, confirm);
  return li;
}

/** Shows an inline panel and puts focus in it; close() gives focus back to its button. */
function open(panel, opener, focusTarget) {
  panel.hidden = false;
  opener.setAttribute('aria-expanded', 'true');
  focusTarget.focus();
  if (focusTarget.select) focusTarget.select();
}

function close(panel, opener) {
  panel.hidden = true;
  opener.setAttribute('aria-expanded', 'false');
  opener.focus();
}

export async function markSpot(event) {
  event.preventDefault();
  const field = $('mark-name');
  const name = field.value.trim();
  clearFieldError('mark-name', 'mark-error');
  if (!name) { showFieldError('mark-name', 'mark-error', 'Type a name for this spot first.'); return; }
  const control = $('mark-button');
  await act(control, async () => {
    // The daemon averages the fixes of the seconds *before* the request, as waypointctl does.
    answerBeside(control, 'Hold still for 5 seconds…');
    say('Hold still for 5 seconds…');
    await sleep(5000);
    const reply = await request({ cmd: 'place', action: 'mark', name, seconds: 5 });
    const fixes = isNum(reply.fixes) ? ` from ${reply.fixes} GPS fixes` : '';
    const saved = `${name} saved here, within ${formatDistance(reply.error)}${fixes}.`;
    answerBeside(control, saved);
    say(saved);
    field.value = '';
    await loadPlaces();
  }, (message) => {
    // The refusal replaces "Hold still" beside the button, and marks the field.
    answerBeside(control, '');
    showFieldError('mark-name', 'mark-error', message);
  });
}
