/* waypoint-web: the map, supplementary: Leaflet from Debian, nothing fetched before it is
 * opened; everything it does can be done with the box and the lists. */
import { goTo, loadPlaces } from './lists.js';
import { $, act, api, app, clearFieldError, here, onClick, request, say, setText, showFieldError } from './page.js';
import { distanceAndDirection, formatDMS, isNum, trailSegments } from './words.js';


export function setupMap() {
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
  $('map-place-name').addEventListener('input', () => clearFieldError('map-place-name', 'map-place-error'));
  $('map-save-form').addEventListener('submit', (event) => {
    event.preventDefault();
    clearFieldError('map-place-name', 'map-place-error');
    act($('map-save'), async () => {
      const name = $('map-place-name').value.trim();
      if (!name) throw new Error('Type a name for the point first.');
      await request({ cmd: 'place', action: 'add', name, lat: app.chosen.lat, lon: app.chosen.lon });
      say(`${name} saved.`);
      $('map-place-name').value = '';
      await loadPlaces();
    }, (message) => showFieldError('map-place-name', 'map-place-error', message));
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
  const layer = L.tileLayer(local ? '/tiles/{z}/{x}/{y}' : 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
    { minZoom, maxZoom, attribution }).addTo(map);
  // A grey map with no word is no answer: say why, once, under the map.
  layer.once('tileerror', () => {
    const why = local
      ? 'The map tiles could not be read from the Pi.'
      : 'The map tiles could not be loaded: this phone seems to have no internet connection, and the Pi has no map tiles of its own.';
    setText($('map-offline'), `${why} Everything the map does can also be done with the box and the lists above.`);
    $('map-offline').hidden = false;
    say(why);
  });
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
export const mapShown = () => Boolean(app.map) && !$('map-area').hidden;

/** Puts a layer at a point (or removes it); Leaflet redraws only what moved or grew. */
function showLayer(layer, point, radius) {
  if (!point || !isNum(point.lat) || !isNum(point.lon)) { layer.remove(); return; }
  const shown = layer.getLatLng();
  if (!shown || shown.lat !== point.lat || shown.lng !== point.lon) layer.setLatLng([point.lat, point.lon]);
  if (radius !== undefined && layer.getRadius() !== radius) layer.setRadius(radius);
  if (!app.map.hasLayer(layer)) layer.addTo(app.map);
}

export function updateMap(s) {
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
