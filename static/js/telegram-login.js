/* allauth's Telegram callback (templates/telegram/callback.html): posts what Telegram's login
   page put after the "#" (tgAuthResult) to this address, as allauth's own script does; with
   nothing there, posts nothing and the page says to try again. */
(function () {
  'use strict'
  var fields = new URLSearchParams(window.location.hash.slice(1))
  var form = document.getElementById('telegram-callback')
  if (!form || !fields.has('tgAuthResult')) return
  fields.forEach(function (value, name) {
    var input = document.createElement('input')
    input.type = 'hidden'
    input.name = name
    input.value = value
    form.appendChild(input)
  })
  document.getElementById('telegram-nothing').hidden = true
  document.getElementById('telegram-signing').hidden = false
  form.submit()
})()
