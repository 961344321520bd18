/* The site inside Telegram's Mini App (docs/telegram.md), after Telegram's own script
   (static/vendor/telegram-web-app/): on /telegram/app/ it posts the initData Telegram gave the
   page, which signs the person in; on every page it follows Telegram's theme (the script puts
   its colours in --tg-theme-* custom properties, site.css uses them under .tg-theme when the
   text stays readable on the background) and its back button. Outside Telegram it does
   nothing. */
(function () {
  'use strict'
  var webApp = window.Telegram && window.Telegram.WebApp
  if (!webApp || !webApp.initData) return
  var root = document.documentElement

  // WCAG's contrast of two #rrggbb colours, 1 to 21.
  function luminance (hex) {
    var rgb = [1, 3, 5].map(function (i) {
      var c = parseInt(hex.substr(i, 2), 16) / 255
      return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4)
    })
    return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]
  }
  function contrast (a, b) {
    var la = luminance(a)
    var lb = luminance(b)
    return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05)
  }
  var colour = /^#[0-9a-f]{6}$/i

  function followTheme () {
    var theme = webApp.themeParams || {}
    var readable = colour.test(theme.bg_color || '') && colour.test(theme.text_color || '') &&
      contrast(theme.bg_color, theme.text_color) >= 4.5
    root.classList.toggle('tg-theme', readable)
    root.classList.toggle('tg-dark', readable && webApp.colorScheme === 'dark')
    root.style.setProperty('color-scheme', readable ? webApp.colorScheme : 'light')
    if (readable && webApp.setHeaderColor) webApp.setHeaderColor(theme.bg_color)
  }

  root.classList.add('in-telegram')
  followTheme()
  webApp.onEvent('themeChanged', followTheme)

  // Back where the person came from, but not to the page that signed them in.
  var fromSignIn = /\/telegram\/app\/(login\/)?$/.test(document.referrer)
  if (window.history.length > 1 && !fromSignIn && !document.getElementById('miniapp-login')) {
    webApp.BackButton.onClick(function () { window.history.back() })
    webApp.BackButton.show()
  } else {
    webApp.BackButton.hide()
  }

  var form = document.getElementById('miniapp-login')
  if (form) {
    document.getElementById('miniapp-outside').hidden = true
    // Once per opening: coming back to this page does not post the same initData again (it
    // signs in once, docs/telegram.md); the person is signed in already.
    var sent = window.sessionStorage.getItem('miniapp-sent') === webApp.initData
    if (sent) {
      window.location.replace(document.querySelector('.brand').href)
    } else {
      document.getElementById('miniapp-signing').hidden = false
      form.elements.init_data.value = webApp.initData
      window.sessionStorage.setItem('miniapp-sent', webApp.initData)
      form.submit()
    }
  }

  webApp.ready()
  webApp.expand()
})()
