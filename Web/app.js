/* waypoint-web: the phone page of waypointd.
 *
 * Everything comes from the server's JSON endpoints (see the contract): STATUS through
 * Server-Sent Events, actions through POST /api/request. Plain ES2020, no framework, no
 * build step, and nothing inline in the HTML, because the Content-Security-Policy forbids it.
 *
 * Screen readers: numbers that change several times a second are written to plain text (no
 * aria-live), and only events (on target, arrived, GPS lost, results of actions) go to the
 * two live regions, one message at a time.
 */
'use strict';

(function () {
  // ------------------------------------------------------------------ words and numbers
  // Pure functions: they read nothing of the page.

  /** The 16 compass points, clockwise from north, each 22.5° wide. */
  const POINTS = [
    'north', 'north-northeast', 'northeast', 'east-northeast',
    'east', 'east-southeast', 'southeast', 'south-southeast',
    'south', 'south-southwest', 'southwest', 'west-southwest',
    'west', 'west-northwest', 'northwest', 'north-northwest',
  ];

  const isNum = (v) => typeof v === 'number' && Number.isFinite(v);
  const normalize = (deg) => ((deg % 360) + 360) % 360;
  /** An angle in (-180, 180]: the daemon's convention for `error`. */
  const signedAngle = (deg) => { const d = normalize(deg); return d > 180 ? d - 360 : d; };
  const wholeDegrees = (deg) => Math.round(normalize(deg)) % 360;

  /** The 16-point compass name, as the daemon's CompassPoint names it (11.25° is NNE). */
  function compassName(deg) {
    return POINTS[Math.floor((normalize(deg) + 11.25) / 22.5) % 16];
  }

  /** `8.4 m`, `432 m`, `1.24 km`, `5837 km`: rounded as waypointctl rounds, to what matters on foot. */
  function formatDistance(m) {
    if (!isNum(m)) return 'unknown';
    if (m < 10) return `${m.toFixed(1)} m`;
    if (m < 1000) return `${Math.round(m)} m`;
    if (m < 100000) return `${(m / 1000).toFixed(2)} km`;
    return `${Math.round(m / 1000)} km`;
  }

  /** `120 m northeast`, or with `preposition` `120 m to the northeast`; the distance alone
   *  when the bearing is unknown. */
  function distanceWords(m, bearing, preposition = '') {
    if (!isNum(bearing)) return formatDistance(m);
    return `${formatDistance(m)} ${preposition}${compassName(bearing)}`;
  }

  function formatSeconds(s) {
    if (!isNum(s)) return 'unknown';
    if (s < 10) return `${s.toFixed(1)} s`;
    if (s < 120) return `${Math.round(s)} s`;
    return `${Math.round(s / 60)} min`;
  }

  function dmsPart(value, positive, negative) {
    let tenths = Math.round(Math.abs(value) * 36000); // tenths of an arc-second
    const degrees = Math.floor(tenths / 36000);
    tenths -= degrees * 36000;
    const minutes = Math.floor(tenths / 600);
    const seconds = (tenths - minutes * 600) / 10;
    return `${degrees}°${String(minutes).padStart(2, '0')}'${seconds.toFixed(1).padStart(4, '0')}"${value < 0 ? negative : positive}`;
  }

  /** `48°51'30.2"N 2°17'40.2"E`, as waypointctl writes positions. */
  const formatDMS = (lat, lon) => `${dmsPart(lat, 'N', 'S')} ${dmsPart(lon, 'E', 'W')}`;
  const formatDecimal = (lat, lon) => `${lat.toFixed(6)}, ${lon.toFixed(6)}`;

  /** Which way the destination lies, in words, from STATUS `error` (positive: to the right). */
  function directionWords(error) {
    const e = signedAngle(error);
    const side = e > 0 ? 'right' : 'left';
    const a = Math.abs(e);
    if (a <= 10) return 'ahead';
    if (a <= 45) return `slightly ${side}`;
    if (a <= 150) return `turn ${side}`;
    return 'behind you';
  }

  /** `slightly right, 17°`: the words and the exact turn, for the readout and the interval. */
  function directionPhrase(error) {
    const e = signedAngle(error);
    const words = directionWords(e);
    const whole = Math.round(Math.abs(e));
    if (whole === 0) return words;
    if (words === 'ahead' || words === 'behind you') {
      return `${words}, ${whole}° ${e > 0 ? 'right' : 'left'}`;
    }
    return `${words}, ${whole}°`;
  }

  // Spherical formulas: plenty for "120 m northeast" in a list (the daemon guides with Karney's).
  const EARTH_RADIUS = 6371008.8;
  const rad = (d) => (d * Math.PI) / 180;

  function distanceBetween(lat1, lon1, lat2, lon2) {
    const a = Math.sin(rad(lat2 - lat1) / 2) ** 2
      + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(rad(lon2 - lon1) / 2) ** 2;
    return 2 * EARTH_RADIUS * Math.asin(Math.min(1, Math.sqrt(a)));
  }

  function bearingBetween(lat1, lon1, lat2, lon2) {
    const y = Math.sin(rad(lon2 - lon1)) * Math.cos(rad(lat2));
    const x = Math.cos(rad(lat1)) * Math.sin(rad(lat2))
      - Math.sin(rad(lat1)) * Math.cos(rad(lat2)) * Math.cos(rad(lon2 - lon1));
    return normalize((Math.atan2(y, x) * 180) / Math.PI);
  }

  /** `120 m northeast` from a position to a place, or '' when either is unknown. */
  function distanceAndDirection(from, lat, lon) {
    if (!from || !isNum(lat) || !isNum(lon)) return '';
    const d = distanceBetween(from.lat, from.lon, lat, lon);
    return d < 1 ? 'here' : distanceWords(d, bearingBetween(from.lat, from.lon, lat, lon));
  }

  const placeName = (d) => (d && d.name) || (d ? formatDMS(d.lat, d.lon) : '');

  const headingUsable = (h) => Boolean(h && h.reliable && isNum(h.true));

  /** `the route` and its name, if it has one. */
  const routeName = (r) => `the route${r && r.name ? ` ${r.name}` : ''}`;

  function fixProblemText(fix) {
    if (!fix) return 'no fix from the GPS yet';
    switch (fix.problem) {
      case 'no-position': return 'the GPS has no position yet';
      case 'stale': return `the last fix is ${formatSeconds(fix.age)} old`;
      case 'imprecise': return `the fix is too imprecise (within ${formatDistance(fix.eph)})`;
      case null: case undefined: return 'no usable fix';
      default: return fix.problem;
    }
  }

  /** `212° southwest` (or `212.4° southwest` with `digits`), or why the heading is unknown. */
  function headingText(h, digits = 0) {
    if (!headingUsable(h)) return `Unknown: ${headingProblemText(h)}`;
    return `${digits ? h.true.toFixed(digits) : wholeDegrees(h.true)}° ${compassName(h.true)}`;
  }

  function headingProblemText(h) {
    if (!h) return 'no compass';
    switch (h.problem) {
      case 'no-imu': return 'the compass chip is not answering';
      case 'not-calibrated': return 'the compass is not calibrated (see Compass calibration)';
      case 'interference': return 'magnetic interference nearby';
      case 'pointing-vertical': return 'the device points straight up or down';
      case 'no-solution': return 'no heading can be worked out';
      case 'magnetic-blackout': return 'too near a magnetic pole';
      case null: case undefined: return isNum(h.true) ? 'unreliable' : 'no reading yet';
      default: return h.problem;
    }
  }

  /** The STATUS `state` in plain language. */
  function stateSentence(s) {
    const name = placeName(s.destination);
    switch (s.state) {
      case 'idle': return 'No destination. Type or paste one in the box, or choose a place.';
      case 'no-fix': return `Waiting for GPS: ${fixProblemText(s.fix)}.`;
      case 'no-heading': return `Compass heading unreliable: ${headingProblemText(s.heading)}.`;
      case 'guiding':
        return s.route ? `Following ${routeName(s.route)}, towards ${name}.` : `Guiding to ${name}.`;
      case 'arrived': return `Arrived at ${name}.`;
      default: return String(s.state);
    }
  }

  /** Where the destination lies for the readout, honest about what is unknown. */
  function directionText(s) {
    if (!s.destination) return 'No destination';
    if (s.state === 'arrived') return 'You are there';
    if (s.state === 'guiding' && isNum(s.error)) return directionPhrase(s.error);
    if (s.state === 'no-heading' && isNum(s.bearing)) {
      return `to the ${compassName(s.bearing)}; which way to turn is unknown without the compass`;
    }
    return 'Unknown';
  }

  function describeRoute(route) {
    if (!route) return 'No route loaded.';
    const target = route.target && route.target.name ? `: ${route.target.name}` : '';
    const done = route.finished ? ' The route is finished.' : '';
    return `Route ${route.name || '(no name)'}: waypoint ${route.waypoint} of ${route.count}${target}, `
      + `${formatDistance(route.remaining)} left along the route.${done}`;
  }

  /** The WHERE reply as a sentence: house number and street, then the town. */
  function describeWhere(w) {
    const street = [w.housenumber, w.street].filter(Boolean).join(' ') || w.address;
    const parts = [street, w.place].filter(Boolean);
    if (!parts.length) return 'The map knows no address near here.';
    let text = `You are near ${parts.join(', ')}`;
    if (isNum(w.distance_m) && w.distance_m >= 5 && isNum(w.bearing_deg)) {
      text += ` (${distanceWords(w.distance_m, w.bearing_deg, 'to the ')})`;
    }
    return `${text}.`;
  }

  /** The daemon's messages are clauses ("no map is loaded; …"): shown and said as sentences. */
  function sentence(text) {
    const t = String(text || '').trim();
    if (!t) return t;
    return t[0].toUpperCase() + t.slice(1) + (/[.!?…]$/.test(t) ? '' : '.');
  }

  /** Map names go to the daemon as `go` names: no control or bidi override characters, ≤ 100. */
  function cleanName(name) {
    // eslint-disable-next-line no-control-regex
    const clean = String(name || '').replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, ' ').trim();
    return Array.from(clean).slice(0, 100).join('').trim();
  }

  /**
   * On target / off target, edge-triggered: entering the zone (|error| ≤ zone) turns it on,
   * only leaving it by a margin more turns it off (hysteresis), and no two announcements come
   * less than `quietMs` apart, so a wearer swaying at the edge is not told every step.
   * update() returns 'on', 'off' or null (nothing to say). The first reading sets it silently.
   */
  function createTargetTracker(quietMs = 3000) {
    let inside = null;
    let said = null;
    let saidAt = -Infinity;
    return {
      reset() { inside = null; said = null; },
      update(error, zone, now) {
        if (!isNum(error) || !isNum(zone)) return null;
        const a = Math.abs(signedAngle(error));
        if (inside === null) { inside = a <= zone; said = inside; return null; }
        if (inside && a > zone + Math.max(5, zone * 0.25)) inside = false;
        else if (!inside && a <= zone) inside = true;
        if (inside === said || now - saidAt < quietMs) return null;
        said = inside;
        saidAt = now;
        return inside ? 'on' : 'off';
      },
    };
  }

  /**
   * What the compass shows, as the terminal compass does: heading up; without a trusted heading
   * an empty ring; while not guiding no pin and no zone (a drawn direction would be a false one).
   * pin: the destination's angle from the top, clockwise; zone: the motor's half-width.
   */
  function compassView(s) {
    if (!s || !headingUsable(s.heading)) return { heading: null, pin: null, zone: null, away: false };
    const guiding = s.state === 'guiding' && isNum(s.error);
    const haptic = s.haptic || {};
    return {
      heading: s.heading.true,
      pin: guiding ? signedAngle(s.error) : null,
      zone: guiding && isNum(haptic.zone) ? haptic.zone : null,
      away: haptic.mode === 'away',
    };
  }

  /** The last `maxPoints` points of a GPX trail, one array of [lat, lon] per segment. */
  function trailSegments(doc, maxPoints = 2000) {
    const segments = [];
    for (const seg of Array.from(doc.getElementsByTagNameNS('*', 'trkseg'))) {
      const points = Array.from(seg.getElementsByTagNameNS('*', 'trkpt'))
        .map((p) => [parseFloat(p.getAttribute('lat')), parseFloat(p.getAttribute('lon'))])
        .filter(([lat, lon]) => isNum(lat) && isNum(lon));
      if (points.length) segments.push(points);
    }
    const kept = [];
    let budget = maxPoints;
    for (let i = segments.length - 1; i >= 0 && budget > 0; i -= 1) {
      const part = segments[i].slice(-budget);
      kept.unshift(part);
      budget -= part.length;
    }
    return kept;
  }

  // ------------------------------------------------------------------ the page's state

  const $ = (id) => document.getElementById(id);
  const AUTO = { auto: true };
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const NOT_PAIRED = 'This phone is not paired with the Pi yet.';
  const DAEMON_DOWN = 'The navigation service on the Pi is not answering.';

  const app = {
    paired: null,          // unknown until the first answer of the server
    status: null,          // the latest STATUS
    recent: [],
    places: [],
    paused: false,
    events: null,          // the EventSource
    connectionLost: false,
    daemonDown: false,
    ownChangeUntil: 0,     // our own actions change the destination: don't announce it twice
    tracker: createTargetTracker(),
    intervalTimer: null,
    calibration: null,     // the latest CALIBRATION
    calibrationTimer: null,
    map: null,
    layers: null,
    chosen: null,          // the point tapped on the map
    trailTimer: null,
  };

  /** Our own actions change the destination: for 5 s its change is not announced again. */
  const markOwnChange = () => { app.ownChangeUntil = Date.now() + 5000; };

  // Settings survive a reload; private browsing may refuse storage, then they last a visit.
  const store = {
    get(key, fallback) {
      try { const v = localStorage.getItem(`waypoint.${key}`); return v === null ? fallback : JSON.parse(v); } catch (e) { return fallback; }
    },
    set(key, value) {
      try { localStorage.setItem(`waypoint.${key}`, JSON.stringify(value)); } catch (e) { /* kept for this visit */ }
    },
  };

  // ------------------------------------------------------------------ small DOM helpers

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /** Writes text only when it changed: a screen reader on that element is not disturbed. */
  function setText(node, text) {
    if (node.textContent !== text) node.textContent = text;
  }

  function button(text, onClick, className) {
    const b = el('button', className, text);
    b.type = 'button';
    b.addEventListener('click', onClick);
    return b;
  }

  /** The polite region: one message at a time; a new <p> is announced even if the text repeats. */
  function say(text, { auto = false } = {}) {
    if (auto && app.paused) return;
    $('status-region').replaceChildren(el('p', '', text));
  }

  /** The assertive region: arrival and errors only. An error already shown next to its field
   *  is still announced here, but not shown twice. */
  function shout(text, { shown = false } = {}) {
    $('alert-region').replaceChildren(el('p', shown ? 'visually-hidden' : '', sentence(text)));
  }

  /** A new action starts with empty regions: an old message must not look like its answer. */
  const clearMessages = () => { $('alert-region').replaceChildren(); $('status-region').replaceChildren(); };

  /** A field's error: shown under it (in its error element), marked invalid, announced, focused. */
  function showFieldError(fieldId, errorId, message) {
    $(errorId).textContent = sentence(message);
    $(fieldId).setAttribute('aria-invalid', 'true');
    shout(message, { shown: true });
    $(fieldId).focus();
  }

  function clearFieldError(fieldId, errorId) {
    $(errorId).textContent = '';
    $(fieldId).removeAttribute('aria-invalid');
  }

  // ------------------------------------------------------------------ talking to the server

  class ApiError extends Error {
    constructor(message, status) { super(message); this.status = status; }
  }

  /** One call to the server: its JSON (or with `text`, its body as text); a 401 shows the
   *  not-paired notice; every failure throws an ApiError with a sentence and the HTTP status. */
  async function api(path, { method = 'GET', json, body, headers = {}, text = false } = {}) {
    const init = { method, credentials: 'same-origin', headers: { Accept: 'application/json', ...headers } };
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
      showNotPaired();
      throw new ApiError((data && data.error) || NOT_PAIRED, 401);
    }
    if (!response.ok) {
      const message = data && (data.message || data.error);
      throw new ApiError(message || `The Pi answered with an error (HTTP ${response.status}).`, response.status);
    }
    return text ? raw : data;
  }

  /** One control request, as on the daemon's socket; 422 carries the daemon's sentence. */
  const request = (object) => api('/api/request', { method: 'POST', json: object });

  /** Runs an action from a control: errors go to onError, else to the alert region (a 401 has
   *  already shown the not-paired notice); a busy control ignores taps. */
  async function act(control, action, onError) {
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

  function onClick(id, action) {
    const control = $(id);
    control.addEventListener('click', () => act(control, action));
  }

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

  function renderDetails(s) {
    const f = s.fix;
    const known = f && isNum(f.lat) && isNum(f.lon);
    const last = known && f.problem ? ' (last known)' : '';
    setText($('position-dms'), known ? formatDMS(f.lat, f.lon) + last : 'Unknown');
    setText($('position-decimal'), known ? formatDecimal(f.lat, f.lon) + last : 'Unknown');
    setText($('details-heading-text'), headingText(s.heading, 1));
    let elevation = 'Unknown';
    if (f && isNum(f.altMSL)) elevation = `${Math.round(f.altMSL)} m above sea level`;
    else if (f && isNum(f.altHAE)) elevation = `${Math.round(f.altHAE)} m above the WGS84 ellipsoid`;
    setText($('elevation-text'), elevation);
    setText($('accuracy-text'), f && isNum(f.eph) ? `within ${formatDistance(f.eph)} (95 %)` : 'Unknown');
    let fix = 'No fix yet';
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
    const own = Date.now() < app.ownChangeUntil;
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
        if (r && prev.route && r.waypoint !== prev.route.waypoint) {
          lines.push(`Now to waypoint ${r.waypoint} of ${r.count}${r.target && r.target.name ? `, ${r.target.name}` : ''}${where}.`);
        } else {
          lines.push(`New destination: ${name}${where}.`);
        }
      }
    }
    // A problem the daemon starts reporting (a fault, a stale fix) is said once, when it comes.
    const before = new Set(Array.isArray(prev.problems) ? prev.problems : []);
    for (const problem of Array.isArray(s.problems) ? s.problems : []) {
      if (!before.has(problem)) lines.push(sentence(`Problem: ${problem}`)); // ends a sentence: more may follow
    }
    if (s.state === 'guiding') {
      const change = app.tracker.update(s.error, s.haptic && s.haptic.zone, Date.now());
      if (change === 'on') lines.push('On target.');
      else if (change === 'off') lines.push(`Off target: ${directionWords(s.error)}.`);
    } else {
      app.tracker.reset();
    }
    if (lines.length) say(lines.join(' '), AUTO);
  }

  // ------------------------------------------------------------------ the compass

  const SVG = 'http://www.w3.org/2000/svg';
  const compass = {};

  function svg(name, attributes, parent) {
    const node = document.createElementNS(SVG, name);
    for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
    parent.appendChild(node);
    return node;
  }

  /** A point at `angle` degrees clockwise from the top, `radius` from the centre. */
  const at = (angle, radius) => [radius * Math.sin(rad(angle)), -radius * Math.cos(rad(angle))];

  function buildCompass() {
    const root = $('compass');
    root.setAttribute('viewBox', '-120 -120 240 240');
    compass.zone = svg('path', { class: 'compass-zone', d: '' }, root);
    svg('circle', { class: 'compass-ring', r: 90 }, root);
    compass.ticks = [0, 45, 90, 135, 180, 225, 270, 315].map(
      (deg) => ({ deg, node: svg('line', { class: 'compass-tick' }, root) }));
    compass.letters = [['N', 0], ['E', 90], ['S', 180], ['W', 270]].map(([text, deg]) => {
      const node = svg('text', { class: deg === 0 ? 'compass-letter north' : 'compass-letter' }, root);
      node.textContent = text;
      return { deg, node };
    });
    compass.pinLine = svg('line', { class: 'compass-pin-line', x1: 0, y1: 0 }, root);
    compass.pin = svg('circle', { class: 'compass-pin', r: 10 }, root);
    // The "v" above the ring: where the wearer faces, always at the top.
    svg('path', { class: 'compass-facing', d: 'M -10 -117 L 10 -117 L 0 -99 Z' }, root);
    compass.me = svg('circle', { class: 'compass-me', r: 7 }, root);
    compass.unknown = svg('text', { class: 'compass-unknown' }, root);
    compass.unknown.textContent = '?';
  }

  function arcPath(from, to, radius) {
    if (to - from >= 359.9) { // the whole ring: two half arcs, since one arc cannot close
      const [x1, y1] = at(from, radius);
      const [x2, y2] = at(from + 180, radius);
      return `M ${x1} ${y1} A ${radius} ${radius} 0 1 1 ${x2} ${y2} A ${radius} ${radius} 0 1 1 ${x1} ${y1}`;
    }
    const [x1, y1] = at(from, radius);
    const [x2, y2] = at(to, radius);
    return `M ${x1} ${y1} A ${radius} ${radius} 0 ${to - from > 180 ? 1 : 0} 1 ${x2} ${y2}`;
  }

  /** Draws the compass to whole degrees; STATUS comes 5 times a second, so nothing is redrawn
   *  unless something drawn changed. */
  function drawCompass(view) {
    const known = view.heading !== null;
    const heading = known ? Math.round(view.heading) : 0;
    const pin = view.pin !== null ? Math.round(view.pin) : null;
    const key = known ? `${heading}|${pin}|${view.zone}|${view.away}` : 'unknown';
    if (compass.key === key) return;
    compass.key = key;
    compass.unknown.setAttribute('visibility', known ? 'hidden' : 'visible');
    compass.me.setAttribute('visibility', known ? 'visible' : 'hidden');
    for (const { deg, node } of compass.ticks) {
      const [x1, y1] = at(deg - heading, 82);
      const [x2, y2] = at(deg - heading, 90);
      node.setAttribute('x1', x1.toFixed(1)); node.setAttribute('y1', y1.toFixed(1));
      node.setAttribute('x2', x2.toFixed(1)); node.setAttribute('y2', y2.toFixed(1));
      node.setAttribute('visibility', known ? 'visible' : 'hidden');
    }
    for (const { deg, node } of compass.letters) {
      if (!known) { node.setAttribute('visibility', 'hidden'); continue; }
      const [x, y] = at(deg - heading, 66);
      node.setAttribute('x', x.toFixed(1));
      node.setAttribute('y', y.toFixed(1));
      node.setAttribute('visibility', 'visible');
    }
    const pinShown = pin !== null;
    for (const node of [compass.pin, compass.pinLine]) node.setAttribute('visibility', pinShown ? 'visible' : 'hidden');
    if (pinShown) {
      const [x, y] = at(pin, 90);
      compass.pin.setAttribute('cx', x.toFixed(1));
      compass.pin.setAttribute('cy', y.toFixed(1));
      compass.pinLine.setAttribute('x2', x.toFixed(1));
      compass.pinLine.setAttribute('y2', y.toFixed(1));
    }
    let d = '';
    if (view.zone !== null) {
      const half = Math.min(view.zone, 180);
      // "away": the motor answers outside the zone, so that is the part drawn.
      d = view.away
        ? (half < 180 ? arcPath(pin + half, pin + 360 - half, 100) : '')
        : arcPath(pin - half, pin + half, 100);
    }
    compass.zone.setAttribute('d', d);
  }

  // ------------------------------------------------------------------ live updates

  function setConnection(text) { setText($('connection-text'), text); }

  function parse(text) { try { return JSON.parse(text); } catch (e) { return null; } }

  function connectEvents() {
    if (app.events) app.events.close();
    const events = new EventSource('/api/events');
    app.events = events;
    events.addEventListener('open', () => {
      setConnection('Connected to the Pi.');
      if (app.connectionLost) {
        app.connectionLost = false;
        say('Connected to the Pi again.');
        loadLists();
      }
    });
    events.addEventListener('status', (event) => {
      const s = parse(event.data);
      if (!s) return;
      if (app.daemonDown) {
        app.daemonDown = false;
        setConnection('Connected to the Pi.');
        say('The navigation service on the Pi is answering again.');
      }
      handleStatus(s);
    });
    events.addEventListener('daemon', (event) => {
      const d = parse(event.data) || {};
      setConnection('Connected to the Pi, but its navigation service is not answering.');
      if (!app.daemonDown) {
        app.daemonDown = true;
        say(sentence(`The navigation service on the Pi is not answering: ${d.error || 'no reason given'}`));
      }
      setText($('state-text'), DAEMON_DOWN);
    });
    events.addEventListener('error', () => {
      if (!app.connectionLost) {
        app.connectionLost = true;
        setConnection('Connection to the Pi lost; trying again…');
        say('Connection to the Pi lost. Trying again.');
      }
      // The browser retries by itself unless the answer was not a stream (401, 503): then we do.
      if (events.readyState === EventSource.CLOSED && app.events === events) {
        app.events = null;
        setTimeout(checkAndReconnect, 5000);
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

  // ------------------------------------------------------------------ announcements

  function sayDistance() {
    const s = app.status;
    if (!s || !isNum(s.distance) || !['guiding', 'no-heading'].includes(s.state)) return;
    const way = s.state === 'guiding' && isNum(s.error) ? directionWords(s.error) : 'direction unknown';
    say(`${formatDistance(s.distance)}, ${way}.`, AUTO);
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
    const box = $('box');
    const text = box.value.trim();
    clearFieldError('box', 'box-error');
    if (!text) { clearMessages(); boxError('Type or paste a destination first.'); return; }
    await act($('box-go'), async () => {
      markOwnChange();
      const reply = await api('/api/place', { method: 'POST', json: { text } });
      if (reply.result === 'set') {
        hideResults();
        box.value = '';
        const name = reply.name || formatDMS(reply.lat, reply.lon);
        say(reply.said || `Guiding to ${name}.`);
      } else {
        const results = (reply.search && reply.search.results) || [];
        const found = `${results.length} places found for ${text}`;
        showResults(results, reply.said || found);
        say(reply.said || `${found}.`);
      }
    }, (e) => boxError(e.message));
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
        ['result-title', `${i + 1}. Go to ${r.name || (r.kind ? `a ${r.kind}` : 'this place')}`],
        r.name && r.kind ? ['result-line', r.kind] : null,
        r.address ? ['result-line', r.address] : null,
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

  // ------------------------------------------------------------------ going places

  const here = () => {
    const f = app.status && app.status.fix;
    return f && isNum(f.lat) && isNum(f.lon) ? f : null;
  };

  async function goTo(req, name, lat, lon) {
    markOwnChange();
    await request(req);
    const where = distanceAndDirection(here(), lat, lon);
    say(`Guiding to ${name}${where ? `, ${where}` : ''}.`);
  }

  let recentTimer = null;
  function refreshRecentSoon() {
    clearTimeout(recentTimer);
    recentTimer = setTimeout(() => loadRecent().catch(() => {}), 500);
  }

  async function loadRecent() {
    const reply = await request({ cmd: 'recent' });
    app.recent = reply.destinations || [];
    renderRecent();
  }

  async function loadPlaces(focusKey) {
    const reply = await request({ cmd: 'place', action: 'list' });
    app.places = reply.places || [];
    renderPlaces(focusKey);
    renderRecent(); // its names are told apart from the places' names
  }

  function loadLists() {
    loadRecent().catch((e) => listError('recent-list', e));
    loadPlaces().catch((e) => listError('places-list', e));
  }

  function listError(id, e) {
    if (e.status !== 401) $(id).replaceChildren(el('li', 'item empty', `Could not load the list: ${e.message}`));
  }

  /** A list item: the place's name, how far it is (kept up to date), then its buttons. */
  function itemHead(title, lat, lon) {
    const li = el('li', 'item');
    const head = el('p', 'item-title', title);
    const distance = el('span', 'item-distance');
    distance.dataset.lat = lat;
    distance.dataset.lon = lon;
    head.append(' ', distance);
    li.append(head);
    return li;
  }

  let distancesFrom = null; // the position the lists' distances were last worked out from

  /** Brings the lists' distances up to date; only when the position moved, unless `force`
   *  (new items). */
  function updateDistances(force = false) {
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
    // Button names must be unique on the page: a recent place named like a saved one gets its number.
    const taken = new Set(app.places.map((p) => p.name.toLowerCase()));
    const entries = app.recent.map((d, i) => {
      const name = placeName(d);
      const label = taken.has(name.toLowerCase()) ? `${name} (recent ${i + 1})` : name;
      taken.add(name.toLowerCase());
      return [JSON.stringify([d.lat, d.lon, name, label]), () => recentItem(d, name, label)];
    });
    showItems($('recent-list'), entries.length ? entries : [emptyItem('No recent destinations yet.')], $('recent-heading'));
  }

  /** The daemon knows recent places by number, newest first. The list may have changed since it
   *  was drawn (a new destination, another client), so the number is asked afresh when pressed. */
  async function recentNumber(d) {
    await loadRecent();
    const i = app.recent.findIndex((r) => r.lat === d.lat && r.lon === d.lon);
    if (i < 0) throw new Error('That place is no longer in the recent list.');
    return i + 1;
  }

  function recentItem(d, name, label) {
    const li = itemHead(name, d.lat, d.lon);
    const row = el('div', 'button-row');
    const go = button(`Go to ${label}`, () => act(go, async () => goTo({ cmd: 'go', recent: await recentNumber(d) }, name, d.lat, d.lon)));
    go.dataset.focus = `recent:${label}`; // the label: unique in the list, unlike the name
    const forget = button(`Remove ${label} from recent`, () => act(forget, async () => {
      await request({ cmd: 'recent', action: 'remove', index: await recentNumber(d) });
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
    const formRow = el('div', 'button-row');
    const save = el('button', '', `Save the new name for ${p.name}`);
    save.type = 'submit';
    formRow.append(save, button(`Cancel renaming ${p.name}`, () => close(form, rename), 'secondary'));
    form.append(label, input, formRow);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      act(save, async () => {
        const to = input.value.trim();
        if (!to) { input.focus(); throw new Error('Type the new name first.'); }
        await request({ cmd: 'place', action: 'rename', name: p.name, to });
        say(`${p.name} renamed to ${to}.`);
        await loadPlaces(`go:${to}`);
      });
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

  async function markSpot(event) {
    event.preventDefault();
    const field = $('mark-name');
    const name = field.value.trim();
    clearFieldError('mark-name', 'mark-error');
    if (!name) { showFieldError('mark-name', 'mark-error', 'Type a name for this spot first.'); return; }
    await act($('mark-button'), async () => {
      // The daemon averages the fixes of the seconds *before* the request, as waypointctl does.
      say('Hold still for 5 seconds…');
      await sleep(5000);
      const reply = await request({ cmd: 'place', action: 'mark', name, seconds: 5 });
      const fixes = isNum(reply.fixes) ? ` from ${reply.fixes} GPS fixes` : '';
      say(`${name} saved here, within ${formatDistance(reply.error)}${fixes}.`);
      field.value = '';
      await loadPlaces();
    });
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
    markOwnChange();
    const reply = await request({ cmd: 'route', action });
    showRoute(reply.route);
    say(routeSentence(action, reply.route));
  }

  async function uploadRoute(event) {
    event.preventDefault();
    const file = $('route-file').files[0];
    await act($('route-upload'), async () => {
      if (!file) { $('route-file').focus(); throw new Error('Choose a GPX file first.'); }
      markOwnChange();
      const reply = await api('/api/route', {
        method: 'POST', body: file, headers: { 'Content-Type': 'application/gpx+xml' },
      });
      if (reply.route !== undefined) showRoute(reply.route);
      say(reply.said || 'Route loaded; following it now.');
      $('route-form').reset();
    });
  }

  async function takeMeBack() {
    markOwnChange();
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
    markOwnChange();
    await request({ cmd: 'clear' });
    say(had ? 'Destination cleared; guidance stopped.' : 'No destination was set; nothing to clear.');
  }

  async function whereAmI() {
    setText($('where-text'), 'Asking the Pi…');
    try {
      const text = describeWhere(await request({ cmd: 'where' }));
      setText($('where-text'), text);
      say(text);
    } catch (e) {
      setText($('where-text'), sentence(e.message));
      throw e;
    }
  }

  // ------------------------------------------------------------------ calibration

  function renderCalibration(r) {
    const nodes = [];
    if (r.state === 'running') {
      nodes.push(el('p', '', `Collecting: ${r.samples || 0} samples so far.`));
      if (r.missing && r.missing.length) {
        nodes.push(el('p', '', 'Still to do:'));
        const ul = el('ul');
        ul.append(...r.missing.map((m) => el('li', '', m)));
        nodes.push(ul);
      }
      nodes.push(el('p', '', r.ready ? 'Ready: press Finish calibration.' : 'Not ready yet: keep turning slowly.'));
    } else if (r.state === 'stored') {
      const q = r.quality;
      const quality = q && isNum(q.fitError) && isNum(q.coverage)
        ? ` Fit error ${q.fitError.toFixed(1)} %, coverage ${Math.round(q.coverage)} %.` : '';
      nodes.push(el('p', '', `A calibration is stored and in use.${quality}`));
    } else {
      nodes.push(el('p', '', 'Not calibrated: the compass cannot guide until it is calibrated.'));
    }
    if (r.message) nodes.push(el('p', '', sentence(r.message)));
    const box = $('calibrate-text');
    const text = nodes.map((n) => n.textContent).join('\n');
    if (box.dataset.shown !== text) { box.dataset.shown = text; box.replaceChildren(...nodes); }
  }

  /** While collecting, says only what changed: a direction covered, or ready to finish. */
  function announceCalibration(prev, r) {
    if (r.state !== 'running' || !prev || prev.state !== 'running') return;
    const before = prev.missing || [];
    const now = r.missing || [];
    if (r.ready && !prev.ready) say('Enough directions are covered: press Finish calibration.');
    else if (now.length < before.length && now.length) {
      say(`Direction covered; ${now.length} still to do${now[0] !== before[0] ? `. Next: ${now[0]}` : ''}.`);
    }
  }

  function showCalibrationReply(r) {
    const prev = app.calibration;
    app.calibration = r;
    renderCalibration(r);
    announceCalibration(prev, r);
    if (r.state === 'running') pollCalibration();
    else stopCalibrationPolling();
  }

  /** One poll a second while collecting; the handle stays set while a poll is on its way, so
   *  STATUS and replies asking for polling again never start a second chain. */
  function pollCalibration() {
    if (app.calibrationTimer) return;
    app.calibrationTimer = setTimeout(async () => {
      let reply = null;
      try {
        reply = await request({ cmd: 'calibrate', action: 'status' });
      } catch (e) {
        app.calibrationTimer = null;
        if (e.status !== 401) pollCalibration();
        return;
      }
      app.calibrationTimer = null;
      showCalibrationReply(reply);
    }, 1000);
  }

  function stopCalibrationPolling() {
    clearTimeout(app.calibrationTimer);
    app.calibrationTimer = null;
  }

  async function calibrate(action) {
    const r = await request({ cmd: 'calibrate', action });
    showCalibrationReply(r);
    if (action === 'start') {
      const first = r.missing && r.missing.length ? ` First: ${r.missing[0]}.` : '';
      say(`${sentence(r.message || 'Calibration started: turn the device slowly through every direction, and tilt it nose up, nose down, left and right')}${first}`);
    } else if (action === 'finish') {
      say(sentence(r.message || 'Calibration stored and in use'));
    } else {
      say(sentence(r.message || 'Calibration cancelled; the calibration in use is kept'));
    }
  }

  // ------------------------------------------------------------------ the map (supplementary)

  function setupMap() {
    if (!window.L) {
      $('map-toggle').hidden = true;
      setText($('map-note'), 'The map is unavailable: its library did not load. Everything the map does can be done with the box and the lists above.');
      return;
    }
    $('map-toggle').addEventListener('click', () => act($('map-toggle'), toggleMap));
    onClick('map-centre', async () => {
      const f = here();
      if (!f || !app.map) throw new Error('Your position is not known yet.');
      app.map.setView([f.lat, f.lon], Math.max(app.map.getZoom(), 16));
    });
    onClick('map-go', () => goTo({ cmd: 'go', lat: app.chosen.lat, lon: app.chosen.lon }, 'the chosen point', app.chosen.lat, app.chosen.lon));
    $('map-save-form').addEventListener('submit', (event) => {
      event.preventDefault();
      act($('map-save'), async () => {
        const name = $('map-place-name').value.trim();
        if (!name) { $('map-place-name').focus(); throw new Error('Type a name for the point first.'); }
        await request({ cmd: 'place', action: 'add', name, lat: app.chosen.lat, lon: app.chosen.lon });
        say(`${name} saved.`);
        $('map-place-name').value = '';
        await loadPlaces();
      });
    });
  }

  async function toggleMap() {
    const opening = $('map-area').hidden;
    $('map-area').hidden = !opening;
    $('map-toggle').setAttribute('aria-expanded', String(opening)); // its name stays "Map"
    clearInterval(app.trailTimer);
    if (!opening) return;
    if (!app.map) await createMap();
    else app.map.invalidateSize();
    if (!app.map) return;
    loadTrail();
    app.trailTimer = setInterval(loadTrail, 60000);
    if (app.status) updateMap(app.status);
  }

  async function createMap() {
    const tiles = await api('/api/map'); // no tiles are fetched before the map is opened
    const L = window.L;
    const still = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    const map = L.map($('map'), { zoomAnimation: !still, fadeAnimation: !still, markerZoomAnimation: !still });
    map.attributionControl.setPrefix(false);
    const attribution = '© <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';
    const local = tiles && tiles.tiles === 'local';
    const minZoom = local && isNum(tiles.minzoom) ? tiles.minzoom : 0;
    const maxZoom = local && isNum(tiles.maxzoom) ? tiles.maxzoom : 19;
    L.tileLayer(local ? '/tiles/{z}/{x}/{y}' : 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
      { minZoom, maxZoom, attribution }).addTo(map);
    // Paths only (no marker images), styled by app.css; not interactive, so taps reach the map.
    const path = (className, radius) => L.circleMarker([0, 0], { className, radius, interactive: false });
    app.layers = {
      trail: L.layerGroup().addTo(map),
      accuracy: L.circle([0, 0], { radius: 1, className: 'map-accuracy', interactive: false }),
      me: path('map-me', 8),
      destination: path('map-destination', 9),
      target: path('map-target', 15),
      chosen: path('map-chosen', 12),
    };
    const s = app.status || {};
    const f = here();
    const start = f || s.destination;
    map.setView(start ? [start.lat, start.lon] : [20, 0], start ? Math.min(Math.max(17, minZoom), maxZoom) : Math.max(2, minZoom));
    map.on('click', (event) => choosePoint(event.latlng.lat, L.Util.wrapNum(event.latlng.lng, [-180, 180], true)));
    app.map = map;
  }

  /** The map is drawn only while it is open (opening it draws it afresh). */
  const mapShown = () => Boolean(app.map) && !$('map-area').hidden;

  /** Puts a layer at a point (or removes it); Leaflet redraws only what moved or grew. */
  function showLayer(layer, point, radius) {
    if (!point || !isNum(point.lat) || !isNum(point.lon)) { layer.remove(); return; }
    const shown = layer.getLatLng();
    if (!shown || shown.lat !== point.lat || shown.lng !== point.lon) layer.setLatLng([point.lat, point.lon]);
    if (radius !== undefined && layer.getRadius() !== radius) layer.setRadius(radius);
    if (!app.map.hasLayer(layer)) layer.addTo(app.map);
  }

  function updateMap(s) {
    const f = here();
    showLayer(app.layers.accuracy, f, f && isNum(f.eph) ? Math.max(f.eph, 1) : 1);
    showLayer(app.layers.me, f);
    showLayer(app.layers.destination, s.destination);
    showLayer(app.layers.target, s.route && s.route.target);
    showLayer(app.layers.chosen, app.chosen);
  }

  async function loadTrail() {
    if (!app.map) return;
    try {
      const gpx = await api('/api/trail.gpx', { text: true, headers: { Accept: 'application/gpx+xml' } });
      const doc = new DOMParser().parseFromString(gpx, 'application/xml');
      if (doc.getElementsByTagName('parsererror').length) return;
      app.layers.trail.clearLayers();
      for (const segment of trailSegments(doc, 2000)) {
        window.L.polyline(segment, { className: 'map-trail', interactive: false }).addTo(app.layers.trail);
      }
    } catch (e) {
      // The trail is a nicety on a supplementary view: the map works without it.
    }
  }

  function choosePoint(lat, lon) {
    app.chosen = { lat, lon };
    const where = distanceAndDirection(here(), lat, lon);
    setText($('map-point-text'), `Chosen point: ${formatDMS(lat, lon)}${where ? `, ${where} of you` : ''}.`);
    $('map-panel').hidden = false;
    $('map-panel').scrollIntoView({ block: 'nearest' }); // shown, not focused: the map is for sighted users
    if (app.status) updateMap(app.status);
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

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
}());
