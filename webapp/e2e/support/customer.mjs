// Customer service's page as a visitor uses it.

/**
 * Types text into customer service's composer and sends it with Enter once the page can send.
 * The field takes typing while the chat is still loading, but Enter sends only after it has
 * loaded (the send button is enabled from then on), and the "connecting" banner appears only
 * after that too, so waiting for the banner to go is no sign that a send will be taken.
 */
export async function sendToCustomerService(t, page, text) {
  const field = page.getByRole('textbox', { name: t.text('customer.message') });
  await field.fill(text);
  await page.getByRole('button', { name: t.text('customer.send'), exact: true }).click({ trial: true });
  await field.press('Enter');
  return field;
}
