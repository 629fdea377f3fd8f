/* waypoint-web: compass calibration: its state while collecting, polled once a second, and
 * only what changed said aloud. */
import { $, app, el, request, say } from './page.js';
import { isNum, sentence } from './words.js';


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
  const progress = { auto: true, key: 'calibration', evenPaused: true };
  if (r.ready && !prev.ready) say('Enough directions are covered: press Finish calibration.', progress);
  else if (now.length < before.length && now.length) {
    say(`Direction covered; ${now.length} still to do${now[0] !== before[0] ? `. Next: ${now[0]}` : ''}.`, progress);
  }
}

export function showCalibrationReply(r) {
  const prev = app.calibration;
  app.calibration = r;
  renderCalibration(r);
  announceCalibration(prev, r);
  if (r.state === 'running') pollCalibration();
  else stopCalibrationPolling();
}

/** One poll a second while collecting; the handle stays set while a poll is on its way, so
 *  STATUS and replies asking for polling again never start a second chain. */
export function pollCalibration() {
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

export function stopCalibrationPolling() {
  clearTimeout(app.calibrationTimer);
  app.calibrationTimer = null;
}

export async function calibrate(action) {
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
