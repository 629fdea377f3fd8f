/* waypoint-web: the phone page of waypointd.
 *
 * Everything comes from the server's JSON endpoints (see the contract): STATUS through
 * Server-Sent Events, actions through POST /api/request. Plain ES modules, no framework, no
 * build step, and nothing inline in the HTML, because the Content-Security-Policy forbids it:
 * words.js (the pure words and numbers), page.js (state, DOM helpers, the server), compass.js,
 * lists.js (recent destinations and named places), calibration.js, map.js, and this file (the
 * guidance, announcements, the box, routes, and the start).
 */
import { calibrate, pollCalibration, showCalibrationReply, stopCalibrationPolling } from './calibration.js';
import { buildCompass, drawCompass } from './compass.js';
import { goTo, loadLists, markSpot, refreshRecentSoon, updateDistances } from './lists.js';
import { mapShown, setupMap, updateMap } from './map.js';
import {
  $, AUTO, DAEMON_DOWN, act, api, app, button, clearFieldError, clearMessages, el, hooks, isOwnChange,
  onClick, parse, request, say, setText, shout, showFieldError, store,
} from './page.js';
import {
  cleanName, compassView, describeRoute, describeWhere, directionText, directionWords, distanceWords,
  fixProblemText, formatDMS, formatDecimal, formatDistance, formatSeconds, headingProblemText, headingText, isNum,
  phoneWords, placeName, routeName, sentence, stateSentence,
} from './words.js';

// ------------------------------------------------------------------ pairing

function showNotPaired() {
  const wasPaired = app.paired === true;
  app.paired = false;
  $('not-paired').hidden = false;
  $('app').hidden = true;
  $('section-nav').hidden = true; // its links lead into the hidden part
  setText($('connection-text'), 'Not paired with the Pi.');
  if (app.events) { app.events.close(); app.events = null; }
  stopCalibrationPolling();
  // Only when the page was in use: on load the notice is already what is read first.
  if (wasPaired) $('not-paired-heading').focus();
}

function showPaired() {
  app.paired = true;
  $('not-paired').hidden = true;
  $('app').hidden = false;
  $('section-nav').hidden = false;
}

// ------------------------------------------------------------------ STATUS

function handleStatus(s) {
  const prev = app.status;
  app.status = s;
  renderGuidance(s);
  drawCompass(compassView(s));
  renderDetails(s);
  showRoute(s.route);
  $('mute-button').setAttribute('aria-pressed', String(Boolean(s.muted)));
  updateDistances();
  if (mapShown()) updateMap(s);
  if (s.calibration === 'running') pollCalibration();
  announceChanges(prev, s);
}

function renderGuidance(s) {
  setText($('state-text'), app.daemonDown ? DAEMON_DOWN : stateSentence(s));
  const d = s.destination;
  setText($('destination-text'), d
    ? `${d.name ? `${d.name}, ` : ''}${formatDMS(d.lat, d.lon)}${isNum(d.radius) ? `, arrival within ${formatDistance(d.radius)}` : ''}`
    : 'None');
  const stale = s.fix && s.fix.problem ? ' (from the last known position)' : '';
  setText($('distance-text'), d && isNum(s.distance) ? formatDistance(s.distance) + stale : 'Unknown');
  setText($('direction-text'), directionText(s));
  setText($('heading-text'), headingText(s.heading));
  const problems = Array.isArray(s.problems) ? s.problems : [];
  const list = $('problems-list');
  if (list.dataset.shown !== problems.join('\n')) {
    list.dataset.shown = problems.join('\n');
    list.replaceChildren(...problems.map((p) => el('li', '', p)));
    $('problems').hidden = problems.length === 0;
  }
}

/**
 * The daemon or the server is gone: nothing on the page may still look live. Every value reads
 * Unknown, the compass is empty, and nothing periodic is said (sayDistance needs a STATUS)
 * until a fresh STATUS comes; `reason` is the state's line.
 */
function showUnknown(reason) {
  app.status = null;
  app.tracker.reset();
  setText($('state-text'), reason);
  for (const id of ['destination-text', 'distance-text', 'direction-text', 'heading-text']) setText($(id), 'Unknown');
  drawCompass(compassView(null));
  renderDetails(null);
  $('problems').hidden = true;
}

function renderDetails(s) {
  const f = s && s.fix;
  const known = f && isNum(f.lat) && isNum(f.lon);
  const last = known && f.problem ? ' (last known)' : '';
  setText($('position-dms'), known ? formatDMS(f.lat, f.lon) + last : 'Unknown');
  setText($('position-decimal'), known ? formatDecimal(f.lat, f.lon) + last : 'Unknown');
  setText($('details-heading-text'), s ? headingText(s.heading, 1) : 'Unknown');
  let elevation = 'Unknown';
  if (f && isNum(f.altMSL)) elevation = `${Math.round(f.altMSL)} m above sea level`;
  else if (f && isNum(f.altHAE)) elevation = `${Math.round(f.altHAE)} m above the WGS84 ellipsoid`;
  setText($('elevation-text'), elevation);
  setText($('accuracy-text'), f && isNum(f.eph) ? `within ${formatDistance(f.eph)} (95 %)` : 'Unknown');
  let fix = s ? 'No fix yet' : 'Unknown';
  if (f) {
    fix = f.mode === 3 ? '3D' : f.mode === 2 ? '2D' : 'No fix';
    if (isNum(f.age)) fix += `, ${formatSeconds(f.age)} old`;
    if (f.problem) fix += `; ${fixProblemText(f)}`;
  }
  setText($('fix-text'), fix);
}

const destinationKey = (d) => (d ? `${d.lat.toFixed(6)},${d.lon.toFixed(6)},${d.name || ''}` : '');

/** Says what changed, once, when it changes; the first STATUS of a visit says nothing. All
 *  that one STATUS changed is said as one message: a second would replace the first. */
function announceChanges(prev, s) {
  if (!prev) return;
  const own = isOwnChange(s);
  const name = placeName(s.destination);
  const lines = [];
  if (s.state !== prev.state) {
    if (s.state === 'arrived') {
      shout(s.route && s.route.finished ? `Arrived at the end of ${routeName(s.route)}.` : `Arrived at ${name}.`);
    } else if (s.state === 'no-fix') {
      lines.push(`GPS lost: ${fixProblemText(s.fix)}.`);
    } else if (s.state === 'no-heading') {
      lines.push(`Compass heading lost: ${headingProblemText(s.heading)}.`);
    } else if (s.state === 'guiding' && prev.state === 'no-fix') {
      lines.push('GPS back; guiding again.');
    } else if (s.state === 'guiding' && prev.state === 'no-heading') {
      lines.push('Compass heading back; guiding again.');
    } else if (s.state === 'idle' && prev.destination && !own) {
      lines.push('Guidance stopped: the destination was cleared.');
    }
  }
  const destinationChanged = destinationKey(s.destination) !== destinationKey(prev.destination);
  if (destinationChanged) {
    app.tracker.reset();
    refreshRecentSoon();
    if (s.destination && !own && s.state !== 'arrived') {
      const r = s.route;
      const where = isNum(s.distance) ? `, ${formatDistance(s.distance)}` : '';
      if (r && r.walk && prev.route && r.waypoint !== prev.route.waypoint) {
        lines.push(r.walk.next ? `Next, ${r.walk.next.instruction}.` : 'Now straight on to the destination.');
      } else if (r && prev.route && r.waypoint !== prev.route.waypoint) {
        lines.push(`Now to waypoint ${r.waypoint} of ${r.count}${r.target && r.target.name ? `, ${r.target.name}` : ''}${where}.`);
      } else {
        lines.push(`New destination: ${name}${where}.`);
      }
    }
  }
  // A walk planned again from where the wearer strayed is said once.
  const walk = s.route && s.route.walk;
  const walkBefore = prev.route && prev.route.walk;
  if (walk && walkBefore && walk.replans > walkBefore.replans) lines.push('Off the path: the walk was planned again from here.');
  // A problem the daemon starts reporting (a fault, a stale fix) is said once, when it comes.
  const before = new Set(Array.isArray(prev.problems) ? prev.problems : []);
  for (const problem of Array.isArray(s.problems) ? s.problems : []) {
    if (!before.has(problem)) lines.push(sentence(`Problem: ${problem}`)); // ends a sentence: more may follow
  }
  if (lines.length) say(lines.join(' '), AUTO);
  // The daemon's answer to the wearer's button (said aloud on the Pi too), once each: the
  // number tells a sentence said again from a new one.
  if (s.said && typeof s.said.text === 'string' && (!prev.said || s.said.n !== prev.said.n)) {
    say(s.said.text, { key: 'said' });
  }
  if (s.state === 'guiding') {
    const change = app.tracker.update(s.error, s.haptic && s.haptic.zone, Date.now());
    // Its own key: a newer on or off replaces one still waiting to be said.
    if (change === 'on') say('On target.', { auto: true, key: 'target' });
    else if (change === 'off') say(`Off target: ${directionWords(s.error)}.`, { auto: true, key: 'target' });
  } else {
    app.tracker.reset();
  }
}

// ------------------------------------------------------------------ live updates

function setConnection(text) { setText($('connection-text'), text); }

function connectEvents() {
  if (app.events) app.events.close();
  const events = new EventSource('/api/events');
  app.events = events;
  events.addEventListener('open', () => {
    setConnection('Connected to the Pi.');
    if (app.connectionLost) {
      app.connectionLost = false;
      say('Connected to the Pi again.', { auto: true, key: 'connection', evenPaused: true });
      loadLists();
    }
  });
  events.addEventListener('status', (event) => {
    const s = parse(event.data);
    if (!s) return;
    if (app.daemonDown) {
      app.daemonDown = false;
      setConnection('Connected to the Pi.');
      say('The navigation service on the Pi is answering again.', { auto: true, key: 'connection', evenPaused: true });
      clearDaemonAnswers();
    }
    handleStatus(s);
  });
  events.addEventListener('daemon', (event) => {
    const d = parse(event.data) || {};
    setConnection('Connected to the Pi, but its navigation service is not answering.');
    if (!app.daemonDown) {
      app.daemonDown = true;
      // The reason (a socket's words) is in the event for the curious; the page says what matters.
      console.info('waypoint-web: the daemon does not answer:', d.error);
      say(DAEMON_DOWN, { auto: true, key: 'connection', evenPaused: true });
    }
    showUnknown(DAEMON_DOWN);
  });
  events.addEventListener('error', () => {
    if (!app.connectionLost) {
      app.connectionLost = true;
      setConnection('Connection to the Pi lost; trying again…');
      say('Connection to the Pi lost. Trying again.', { auto: true, key: 'connection', evenPaused: true });
    }
    showUnknown('Not connected to the Pi: what it last said may no longer be so.');
    // The browser retries by itself unless the answer was not a stream (401 for a revoked
    // session, 503): then the page asks at once, and every 5 s after.
    if (events.readyState === EventSource.CLOSED && app.events === events) {
      app.events = null;
      const soon = Date.now() - app.reconnectedAt > 5000;
      app.reconnectedAt = Date.now();
      setTimeout(checkAndReconnect, soon ? 0 : 5000);
    }
  });
}

async function checkAndReconnect() {
  try {
    handleStatus(await api('/api/status'));
    connectEvents();
  } catch (e) {
    if (e.status !== 401) setTimeout(checkAndReconnect, 5000);
  }
}

/** Answers that said the daemon was not answering are out of date once it answers again. */
function clearDaemonAnswers() {
  for (const node of document.querySelectorAll('.answer, .field-error')) {
    if (node.textContent === DAEMON_DOWN) node.textContent = '';
  }
  if ($('where-text').textContent === DAEMON_DOWN) setText($('where-text'), WHERE_HINT);
}

// ------------------------------------------------------------------ announcements

/** The distance said every so often: only from a STATUS that is live (showUnknown clears it). */
function sayDistance() {
  const s = app.status;
  if (!s || !isNum(s.distance) || !['guiding', 'no-heading'].includes(s.state)) return;
  const way = s.state === 'guiding' && isNum(s.error) ? directionWords(s.error) : 'direction unknown';
  say(`${formatDistance(s.distance)}, ${way}.`, { auto: true, key: 'distance' });
}

function setAnnounceInterval(seconds, tell) {
  clearInterval(app.intervalTimer);
  app.intervalTimer = seconds > 0 ? setInterval(sayDistance, seconds * 1000) : null;
  store.set('interval', seconds);
  if (tell) say(seconds > 0 ? `The distance will be said every ${seconds} seconds.` : 'The distance will not be said.');
}

function setPaused(paused, tell) {
  app.paused = paused;
  $('pause-announcements').setAttribute('aria-pressed', String(paused));
  store.set('paused', paused);
  if (tell) {
    say(paused
      ? 'Announcements paused. Answers to what you do, arrival and errors are still said.'
      : 'Announcements on.');
  }
}

// ------------------------------------------------------------------ the box and search

const boxError = (message) => showFieldError('box', 'box-error', message);

async function submitBox(event) {
  event.preventDefault();
  const text = $('box').value.trim();
  clearFieldError('box', 'box-error');
  if (!text) { clearMessages(); boxError('Type or paste a destination first.'); return; }
  await placeFromBox({ text });
}

/** Sends the box's text; coordinates that look typed longitude first (409) are answered
 *  beside the box with both readings to choose from, as waypointctl go refuses them. */
async function placeFromBox(body) {
  await act($('box-go'), async () => {
    const reply = await api('/api/place', { method: 'POST', json: body });
    if (reply.result === 'set') {
      hideResults();
      $('box').value = '';
      say(sentence(reply.said || `Guiding to ${reply.name || formatDMS(reply.lat, reply.lon)}`));
    } else {
      const results = (reply.search && reply.search.results) || [];
      const found = `${results.length} places found for ${body.text}`;
      showResults(results, reply.said || found);
      say(sentence(reply.said || found));
    }
  }, (message, e) => {
    boxError(message);
    if (e.status === 409 && e.data && e.data.meant && e.data.typed) offerReadings(body.text, e.data);
  });
}

/** Two buttons under the box's error: the numbers latitude first, or as typed. */
function offerReadings(text, { meant, typed }) {
  const row = el('div', 'button-row');
  row.append(
    button(`Go to ${meant.dms}`, () => placeFromBox({ text: `${meant.lat}, ${meant.lon}` })),
    button(`Go to ${typed.dms} as typed`, () => placeFromBox({ text, force: true }), 'secondary'),
  );
  $('box-error').append(row);
}

function hideResults() {
  $('results').replaceChildren();
  $('results-section').hidden = true;
}

/** Parts of a button's text shown on their own lines, and read with a comma between them. */
function appendLines(parent, lines) {
  lines.filter(Boolean).forEach(([className, text], i, all) => {
    const line = el('span', className, text);
    if (i < all.length - 1) line.append(el('span', 'visually-hidden', ','));
    parent.append(line);
  });
}

// "a bakery", "an atm".
function withArticle(noun) {
  return (/^[aeiou]/i.test(noun) ? 'an ' : 'a ') + noun;
}

function showResults(results, heading) {
  setText($('results-heading'), heading);
  const list = $('results');
  list.replaceChildren();
  if (!results.length) list.append(el('li', 'item empty', 'Nothing found. Try other words.'));
  results.forEach((r, i) => {
    const name = r.name || r.address || r.kind || 'place';
    const b = button('', () => act(b, () => chooseResult(r, name)));
    // Numbered: two unnamed bakeries at the same distance still have different names.
    appendLines(b, [
      ['result-title', `${i + 1}. Go to ${r.name || (r.kind ? withArticle(r.kind) : 'this place')}`],
      r.name && r.kind ? ['result-line', r.kind] : null,
      // Whose it is, and where: what tells two unnamed bakeries apart by ear.
      r.operator ? ['result-line', r.operator] : null,
      r.address ? ['result-line', r.address] : r.near_street ? ['result-line', `near ${r.near_street}`] : null,
      isNum(r.distance_m) ? ['result-line', distanceWords(r.distance_m, r.bearing_deg)] : null,
    ]);
    const li = el('li');
    li.append(b);
    list.append(li);
  });
  $('results-section').hidden = false;
}

async function chooseResult(r, name) {
  await goTo({ cmd: 'go', lat: r.lat, lon: r.lon, name: cleanName(name) || undefined }, name, r.lat, r.lon);
  hideResults();
  // The chosen button is gone: land on the guidance, where the new destination now shows.
  $('guidance-heading').focus();
}

// ------------------------------------------------------------------ route, trail, actions

function routeSentence(action, route) {
  if (action === 'clear') return 'Route cleared.';
  if (!route) return 'No route is loaded.';
  const start = { next: 'Next waypoint. ', previous: 'Previous waypoint. ', reverse: 'Route reversed. ' }[action] || '';
  return start + describeRoute(route);
}

const showRoute = (route) => setText($('route-text'), describeRoute(route));

async function routeAction(action) {
  const reply = await request({ cmd: 'route', action });
  showRoute(reply.route);
  say(routeSentence(action, reply.route));
}

async function uploadRoute(event) {
  event.preventDefault();
  const file = $('route-file').files[0];
  await act($('route-upload'), async () => {
    if (!file) { $('route-file').focus(); throw new Error('Choose a GPX file first.'); }
      const reply = await api('/api/route', {
      method: 'POST', body: file, headers: { 'Content-Type': 'application/gpx+xml' },
    });
    if (reply.route !== undefined) showRoute(reply.route);
    say(reply.said || 'Route loaded; following it now.');
    $('route-form').reset();
  });
}

async function takeMeBack() {
  const reply = await request({ cmd: 'back' });
  const r = reply.route;
  showRoute(r);
  say(r
    ? `Guiding back along the trail: ${r.count} waypoint${r.count === 1 ? '' : 's'}, ${formatDistance(r.remaining)} to go.`
    : 'Guiding back along the trail.');
}

async function toggleMute() {
  const on = !(app.status && app.status.muted);
  await request({ cmd: 'mute', on });
  // Kept until the next STATUS replaces it, so a second tap before then toggles back.
  if (app.status) app.status.muted = on;
  $('mute-button').setAttribute('aria-pressed', String(on)); // STATUS confirms it soon
  say(on ? 'Guidance vibration muted; warnings still play.' : 'Guidance vibration on.');
}

async function clearDestination() {
  const had = Boolean(app.status && app.status.destination);
  await request({ cmd: 'clear' });
  say(had ? 'Destination cleared; guidance stopped.' : 'No destination was set; nothing to clear.');
}

const WHERE_HINT = 'Where am I? asks the Pi\'s offline map for the nearest address.';

async function whereAmI() {
  setText($('where-text'), 'Asking the Pi…');
  try {
    const text = describeWhere(await request({ cmd: 'where' }));
    setText($('where-text'), text);
    say(text);
  } catch (e) {
    if (e.status === 401) return;
    // Its answer's place is this paragraph, beside the button.
    setText($('where-text'), sentence(phoneWords(e.message)));
    shout(e.message, { shown: true });
  }
}

// ------------------------------------------------------------------ start

/**
 * Asks for the first STATUS. True when the server answered and this phone is paired, even if
 * the daemon behind it did not (502: the stream retries); false on 401 (the notice shows) or
 * when nothing answered at all (said aloud too with `tell`).
 */
async function loadStatus({ tell = false } = {}) {
  try {
    const s = await api('/api/status');
    showPaired();
    handleStatus(s);
  } catch (e) {
    if (e.status === 401) return false;
    setText($('state-text'), e.message);
    if (!(e.status > 0)) {
      if (tell) shout(e.message);
      return false;
    }
    showPaired();
  }
  return true;
}

async function start() {
  buildCompass();
  drawCompass(compassView(null));

  $('box-form').addEventListener('submit', submitBox);
  $('mark-form').addEventListener('submit', markSpot);
  // Typing again clears the field's error.
  for (const [field, error] of [['box', 'box-error'], ['mark-name', 'mark-error']]) {
    $(field).addEventListener('input', () => clearFieldError(field, error));
  }
  $('route-form').addEventListener('submit', uploadRoute);
  onClick('mute-button', toggleMute);
  onClick('clear-button', clearDestination);
  onClick('buzz-button', async () => {
    await request({ cmd: 'buzz', pattern: 'test' });
    say('Buzzing for one second.');
  });
  onClick('where-button', whereAmI);
  onClick('back-button', takeMeBack);
  for (const action of ['next', 'previous', 'reverse', 'clear']) onClick(`route-${action}`, () => routeAction(action));
  for (const action of ['start', 'finish', 'cancel']) onClick(`calibrate-${action}`, () => calibrate(action));
  onClick('pair-retry', async () => {
    if (await loadStatus({ tell: true })) {
      say('Paired with the Pi.');
      begin();
      $('destination-heading').focus(); // the pressed button is hidden now
    }
  });

  const interval = $('announce-interval');
  const seconds = Number(store.get('interval', 0));
  interval.value = ['0', '10', '30', '60'].includes(String(seconds)) ? String(seconds) : '0';
  setAnnounceInterval(Number(interval.value), false);
  interval.addEventListener('change', () => setAnnounceInterval(Number(interval.value), true));
  setPaused(Boolean(store.get('paused', false)), false);
  $('pause-announcements').addEventListener('click', () => setPaused(!app.paused, true));

  setupMap();
  await loadStatus();
  // Not paired: the notice shows. Paired, or no answer yet: the stream keeps trying.
  if (app.paired !== false) begin();
}

/** Once paired: the lists, the calibration's state, and the live stream. */
function begin() {
  loadLists();
  request({ cmd: 'calibrate', action: 'status' }).then(showCalibrationReply).catch(() => {});
  connectEvents();
}

hooks.notPaired = showNotPaired;
// A module runs once the document is parsed, as a deferred script does.
start();
