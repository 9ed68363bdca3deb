// The rows' box scrolls sideways when the bottom rows are wider than the screen (a phone). Open it on the
// player's own card, or else on the middle, where the top of the pyramid is: a box left at its left edge would
// show only the bottom rows' first places.
const box = document.querySelector(".pyramid-scroll");
if (box && box.scrollWidth > box.clientWidth) {
  const me = box.querySelector(".pyramid-card.me");
  if (me) {
    const left = me.offsetLeft - box.offsetLeft;
    box.scrollLeft = left - (box.clientWidth - me.offsetWidth) / 2;
  } else {
    box.scrollLeft = (box.scrollWidth - box.clientWidth) / 2;
  }
}
