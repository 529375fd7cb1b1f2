// Polls /api/results every 400 ms and redraws the standings and the summary line.
'use strict';

const REFRESH_MS = 400;
const number = new Intl.NumberFormat('en-US');

function row(contestant, total) {
  const share = total > 0 ? contestant.votes / total : 0;
  const tr = document.createElement('tr');
  const cells = [String(contestant.number), contestant.name, number.format(contestant.votes)];
  cells.forEach((text, i) => {
    const td = document.createElement('td');
    td.textContent = text;
    if (i === 2) td.className = 'votes';
    tr.appendChild(td);
  });
  const bar = document.createElement('div');
  bar.className = 'bar';
  bar.style.width = (share * 20).toFixed(2) + 'em';
  bar.title = (share * 100).toFixed(1) + '%';
  const td = document.createElement('td');
  td.appendChild(bar);
  tr.appendChild(td);
  return tr;
}

function draw(results) {
  const body = document.querySelector('#standings tbody');
  body.replaceChildren(...results.contestants.map((c) => row(c, results.totalVotes)));
  const summary = document.getElementById('summary');
  summary.className = '';
  summary.textContent = number.format(results.totalVotes) + ' votes in the database; the firehose makes '
      + number.format(results.callsPerSecond) + ' calls/s (' + number.format(results.calls) + ' answered, '
      + number.format(results.accepted) + ' accepted)';
}

async function refresh() {
  try {
    const answer = await fetch('api/results', { cache: 'no-store' });
    if (!answer.ok) throw new Error('HTTP ' + answer.status);
    draw(await answer.json());
  } catch (e) {
    const summary = document.getElementById('summary');
    summary.className = 'error';
    summary.textContent = 'cannot read the results: ' + e.message;
  } finally {
    setTimeout(refresh, REFRESH_MS);
  }
}

refresh();
