/* waypoint-web: the page's words and numbers. Pure functions: they read nothing of the page,
 * so the browser test runs them against the same table as waypointctl's (Presentation). */

/** The 16 compass points, clockwise from north, each 22.5° wide. */
const POINTS = [
  'north', 'north-northeast', 'northeast', 'east-northeast',
  'east', 'east-southeast', 'southeast', 'south-southeast',
  'south', 'south-southwest', 'southwest', 'west-southwest',
  'west', 'west-northwest', 'northwest', 'north-northwest',
];

export const isNum = (v) => typeof v === 'number' && Number.isFinite(v);
export const normalize = (deg) => ((deg % 360) + 360) % 360;
/** An angle in (-180, 180]: the daemon's convention for `error`. */
export const signedAngle = (deg) => { const d = normalize(deg); return d > 180 ? d - 360 : d; };
export const wholeDegrees = (deg) => Math.round(normalize(deg)) % 360;

/** The 16-point compass name, as the daemon's CompassPoint names it (11.25° is NNE). */
export function compassName(deg) {
  return POINTS[Math.floor((normalize(deg) + 11.25) / 22.5) % 16];
}

/** `8.4 m`, `432 m`, `1.24 km`, `5837 km`: rounded as waypointctl rounds, to what matters on foot. */
export function formatDistance(m) {
  if (!isNum(m)) return 'unknown';
  if (m < 10) return `${m.toFixed(1)} m`;
  if (m < 1000) return `${Math.round(m)} m`;
  if (m < 100000) return `${(m / 1000).toFixed(2)} km`;
  return `${Math.round(m / 1000)} km`;
}

/** `120 m northeast`, or with `preposition` `120 m to the northeast`; the distance alone
 *  when the bearing is unknown. */
export function distanceWords(m, bearing, preposition = '') {
  if (!isNum(bearing)) return formatDistance(m);
  return `${formatDistance(m)} ${preposition}${compassName(bearing)}`;
}

export function formatSeconds(s) {
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
export const formatDMS = (lat, lon) => `${dmsPart(lat, 'N', 'S')} ${dmsPart(lon, 'E', 'W')}`;
export const formatDecimal = (lat, lon) => `${lat.toFixed(6)}, ${lon.toFixed(6)}`;

/** Which way the destination lies, in words, from STATUS `error` (positive: to the right). */
export function directionWords(error) {
  const e = signedAngle(error);
  const side = e > 0 ? 'right' : 'left';
  const a = Math.abs(e);
  if (a <= 10) return 'ahead';
  if (a <= 45) return `slightly ${side}`;
  if (a <= 150) return `turn ${side}`;
  return 'behind you';
}

/** `slightly right, 17°`: the words and the exact turn, for the readout and the interval. */
export function directionPhrase(error) {
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
export const rad = (d) => (d * Math.PI) / 180;

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
export function distanceAndDirection(from, lat, lon) {
  if (!from || !isNum(lat) || !isNum(lon)) return '';
  const d = distanceBetween(from.lat, from.lon, lat, lon);
  return d < 1 ? 'here' : distanceWords(d, bearingBetween(from.lat, from.lon, lat, lon));
}

export const placeName = (d) => (d && d.name) || (d ? formatDMS(d.lat, d.lon) : '');

const headingUsable = (h) => Boolean(h && h.reliable && isNum(h.true));

/** `the route` and its name, if it has one. */
export const routeName = (r) => `the route${r && r.name ? ` ${r.name}` : ''}`;

export function fixProblemText(fix) {
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
export function headingText(h, digits = 0) {
  if (!headingUsable(h)) return `Unknown: ${headingProblemText(h)}`;
  return `${digits ? h.true.toFixed(digits) : wholeDegrees(h.true)}° ${compassName(h.true)}`;
}

export function headingProblemText(h) {
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
export function stateSentence(s) {
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
export function directionText(s) {
  if (!s.destination) return 'No destination';
  if (s.state === 'arrived') return 'You are there';
  if (s.state === 'guiding' && isNum(s.error)) return directionPhrase(s.error);
  if (s.state === 'no-heading' && isNum(s.bearing)) {
    return `to the ${compassName(s.bearing)}; which way to turn is unknown without the compass`;
  }
  return 'Unknown';
}

export function describeRoute(route) {
  if (!route) return 'No route loaded.';
  if (route.walk && !route.finished) {
    // A walk over the streets: the next turn as a sentence, what is left, new plans.
    const w = route.walk;
    const next = w.next ? `next, ${w.next.instruction}` : 'straight on to the destination';
    const again = w.replans ? ` Planned again ${w.replans} time${w.replans === 1 ? '' : 's'}.` : '';
    return `Walk${route.name ? ` to ${route.name}` : ''}: ${next}; `
      + `${formatDistance(w.remaining_m)} left along the streets.${again}`;
  }
  const target = route.target && route.target.name ? `: ${route.target.name}` : '';
  const done = route.finished ? ' The route is finished.' : '';
  return `Route ${route.name || '(no name)'}: waypoint ${route.waypoint} of ${route.count}${target}, `
    + `${formatDistance(route.remaining)} left along the route.${done}`;
}

/** The WHERE reply as a sentence: house number and street, then the town. */
export function describeWhere(w) {
  const street = [w.housenumber, w.street].filter(Boolean).join(' ') || w.address;
  const parts = [street, w.place].filter(Boolean);
  if (!parts.length) return 'The map knows no address near here.';
  // In a square, a park, a station: said first; then which side of a street, as waypointctl says.
  const side = !w.housenumber && w.street && isNum(w.bearing_deg) && isNum(w.distance_m) && w.distance_m >= 3
    ? `on the ${['north', 'east', 'south', 'west'][Math.floor((((w.bearing_deg + 180) % 360) + 45) / 90) % 4]} side of ` : 'near ';
  let text = (w.inside ? `You are in ${w.inside}, ` : 'You are ') + side + parts.join(', ');
  if (isNum(w.distance_m) && w.distance_m >= 5 && isNum(w.bearing_deg)) {
    text += ` (${distanceWords(w.distance_m, w.bearing_deg, 'to the ')})`;
  }
  return `${text}.`;
}

/** The daemon's messages are clauses ("no map is loaded; …"): shown and said as sentences. */
export function sentence(text) {
  const t = String(text || '').trim();
  if (!t) return t;
  return t[0].toUpperCase() + t.slice(1) + (/[.!?…]$/.test(t) ? '' : '.');
}

/**
 * The daemon's and the server's sentences are written for both clients, some with a terminal
 * in mind: the page says them without command lines or file paths. Each rule rewrites one
 * phrasing; any other text is kept as it is.
 */
const PHONE_RULES = [
  // place add --replace: the page has no such switch; a new name, or the old place removed.
  [/; replace it \(place add --replace, or "replace":true\), or pick another name/, ': pick another name, or remove the old place first'],
  [/; try back --minutes N( for an older one)?/, ''],
  [/; load one with route load/, ': load a GPX file under Route'],
];

/** `text` in a phone's words (see PHONE_RULES). */
export function phoneWords(text) {
  let words = String(text || '');
  for (const [pattern, replacement] of PHONE_RULES) words = words.replace(pattern, replacement);
  return words;
}

/** A place's name for a list, a button or a sentence: its name, or `Unnamed place`, never a
 *  string of degrees a screen reader would spell out. */
export const spokenPlaceName = (d) => (d && d.name) || 'Unnamed place';

/** Map names go to the daemon as `go` names: no control or bidi override characters, ≤ 100. */
export function cleanName(name) {
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
export function createTargetTracker(quietMs = 3000) {
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
export function compassView(s) {
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
export function trailSegments(doc, maxPoints = 2000) {
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
