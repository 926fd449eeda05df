"""Pages for the page outline: a realistic shop page (landmarks, headings, a form with a
control of each kind and its states, an open details, an aria-expanded menu, a same-origin
iframe) and a page of 500 links. The e2e tests and the bench (which compares the outline's
size with the peers' snapshots of the same page) both serve them."""

from __future__ import annotations

from tests.support.pages import PageSpec
from tests.support.site import html

FRAME = html(
    "Newsletter",
    '<h2>Newsletter</h2><label>Your email <input id="news-email" type="email"></label> <a href="/privacy">Privacy</a>',
)

SHOP = html(
    "Acme Outdoor Shop",
    """
<header class="site-header">
  <a href="/" class="logo">Acme Outdoor</a>
  <nav aria-label="Main">
    <ul>
      <li><a href="/tents">Tents</a></li><li><a href="/packs">Backpacks</a></li>
      <li><a href="/boots">Boots</a></li><li><a href="/sale" aria-current="page">Sale</a></li>
    </ul>
  </nav>
  <button id="menu-toggle" aria-expanded="true" aria-controls="account-menu">Account</button>
  <ul id="account-menu" role="menu">
    <li role="menuitem" tabindex="-1">Orders</li><li role="menuitem" tabindex="-1">Sign out</li>
  </ul>
</header>
<main id="content">
  <h1>Checkout</h1>
  <section aria-labelledby="cart-title">
    <h2 id="cart-title">Your cart</h2>
    <ul class="cart">
      <li>Trail tent, 2 persons <button class="remove" data-sku="T2">Remove</button></li>
      <li>Daypack 20 l <button class="remove" data-sku="D20">Remove</button></li>
    </ul>
    <details open><summary>Delivery options</summary>
      <label><input type="radio" name="delivery" value="standard" checked> Standard (3-5 days)</label>
      <label><input type="radio" name="delivery" value="express"> Express (next day)</label>
    </details>
  </section>
  <form id="checkout" aria-label="Checkout">
    <h2>Shipping address</h2>
    <label for="full-name">Full name</label><input id="full-name" name="name" required value="Ada Lovelace">
    <label for="email">Email</label><input id="email" name="email" type="email" required>
    <label for="country">Country</label>
    <select id="country" name="country"><option>France</option><option selected>Germany</option></select>
    <label for="notes">Notes</label><textarea id="notes" name="notes"></textarea>
    <label for="tip">Tip</label><input id="tip" name="tip" type="range" min="0" max="20" value="5">
    <h2>Payment</h2>
    <label><input type="checkbox" name="terms" checked> I accept the terms</label>
    <label><input type="checkbox" name="gift"> Gift wrap</label>
    <div role="tablist" aria-label="Payment method">
      <button role="tab" aria-selected="true" id="tab-card">Card</button>
      <button role="tab" aria-selected="false" id="tab-invoice">Invoice</button>
    </div>
    <input name="card" placeholder="Card number" autocomplete="cc-number">
    <button type="submit" disabled>Place order</button>
    <div hidden><button>Hidden button</button></div>
    <div aria-hidden="true"><a href="/tracking">Tracking pixel</a></div>
  </form>
  <iframe id="newsletter" src="/outline/frame" title="Newsletter"></iframe>
</main>
<footer>
  <a href="/privacy">Privacy</a> <a href="/terms">Terms</a> <a href="/contact">Contact us</a>
</footer>
""",
)

MANY_LINKS = html(
    "Sitemap",
    "<main><h1>Sitemap</h1><ul>"
    + "".join(f'<li><a href="/item/{i}">Item {i}</a></li>' for i in range(500))
    + "</ul></main><footer><a href='/about'>About</a></footer>",
)

OUTLINE_PAGES: dict[str, PageSpec] = {
    "/outline/shop": (200, "text/html", SHOP),
    "/outline/frame": (200, "text/html", FRAME),
    "/outline/links": (200, "text/html", MANY_LINKS),
}
