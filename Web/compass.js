/* waypoint-web: the compass, an SVG drawn heading up from what STATUS says (words.js's
 * compassView): for sighted helpers; the same facts are in the page's text. */
import { $ } from './page.js';
import { rad } from './words.js';

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

export function buildCompass() {
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
export function drawCompass(view) {
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
