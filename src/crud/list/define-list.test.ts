import { describe, expect, it } from 'vitest'
import { DeleteCms, FreezeCms, listCms } from '#contract/games'
import { deleteHomePageCms, listHomePageCms } from '#contract/homepage'
import { DeleteBuyLink, ListBuyLink, editBuylink } from '#contract/links'
import { CheckBoxDelete } from '#contract/restrictions'
import { ActivateSubadminStatusUpdate, FetchSubAdminUsers } from '#contract/staff'
import { col, field, low } from './columns.tsx'
import { listModel } from './define-list.tsx'
import { number, url } from '../form/form-fields.ts'
import type { BoundCall } from '../writes/row-writes.ts'

const link = { _id: 'l1', buyLink: 'https://example.com/buy', preference: 2, version: 1 }
const game = {
  _id: 'g1',
  title: 'Racing',
  description: '',
  categoryName: { _id: 'c1', categoryName: 'Arcade' },
  operatingsystem: 'ios' as const,
  liveLink: 'https://example.com',
  image: [],
  thumbnails: [],
  video: '',
  preference: 1,
  isGameBackend: false,
  freeze: true,
  version: 1,
}
const staff = { _id: 's1', name: 'Ann', email: 'ann@example.com', accessLevel: 'Admin' as const, role: 'subadmin' as const, restrictions: [], activate: 0, version: 1, setupPending: false }

/** The call goes to this endpoint with this input, and the endpoint's own schema accepts it. */
function expectCall(bound: BoundCall | undefined, name: string, input: unknown) {
  expect(bound?.endpoint.name).toBe(name)
  expect(bound?.input).toEqual(input)
  expect(bound?.endpoint.input.safeParse(bound.input).success).toBe(true)
}

describe('payload mapping of list writes', () => {
  it('a delete sends { id } when the definition names no payload', () => {
    const model = listModel({ title: 'Buy List', endpoint: ListBuyLink, columns: [col('buyLink', 'Buy Link')], remove: { endpoint: DeleteBuyLink, confirm: 'Are you sure you want to remove this Link' } })
    expect(model.remove?.confirm).toBe('Are you sure you want to remove this Link')
    expectCall(model.remove?.request(link), 'DeleteBuyLink', { id: 'l1' })
  })

  it('a delete sends the payload its call wants: { _id } for homepage content', () => {
    const model = listModel({
      title: 'Home Page Content',
      endpoint: listHomePageCms,
      columns: [col('title', 'Title')],
      remove: { endpoint: deleteHomePageCms, confirm: 'Are you sure you want to remove this content', payload: (row) => ({ _id: row._id }) },
    })
    expectCall(model.remove?.request({ _id: 'h1', title: 'Hi', link: '', image: '', thumbnail: '', version: 1 }), 'deleteHomePageCms', { _id: 'h1' })
  })

  it('a toggle maps the row to its call and reads its state and label from the row', () => {
    const model = listModel({
      title: 'Games',
      endpoint: listCms,
      columns: [col('title', 'Title')],
      remove: { endpoint: DeleteCms, confirm: 'Are you sure you want to remove this games' },
      toggle: { kind: 'button', endpoint: FreezeCms, payload: (row) => ({ id: row._id }), isOn: (row) => row.freeze, label: (row) => (row.freeze ? 'UnFreeze' : 'Freeze') },
    })
    expectCall(model.toggle?.request(game), 'FreezeCms', { id: 'g1' })
    expect(model.toggle?.isOn(game)).toBe(true)
    expect(model.toggle?.label(game)).toBe('UnFreeze')
    expect(model.toggle?.label({ ...game, freeze: false })).toBe('Freeze')
  })

  it('the staff switch keeps its name and shows DeActive for an inactive user', () => {
    const model = listModel({
      title: 'Users and Access',
      endpoint: FetchSubAdminUsers,
      columns: [col('name', 'Name')],
      toggle: {
        kind: 'switch',
        name: 'Active',
        endpoint: ActivateSubadminStatusUpdate,
        payload: (row) => ({ id: row._id }),
        isOn: (row) => row.activate === 1,
        label: (row) => (row.activate === 1 ? 'Active' : 'DeActive'),
      },
    })
    expect(model.toggle?.name).toBe('Active')
    expect(model.toggle?.label(staff)).toBe('DeActive')
    expectCall(model.toggle?.request(staff), 'ActivateSubadminStatusUpdate', { id: 's1' })
  })

  // CheckBoxDelete is the restricted countries' call; the list it sits on does not matter here.
  it('a bulk action gets every selected id in the shape its call wants', () => {
    const model = listModel({
      title: 'Buy List',
      endpoint: ListBuyLink,
      columns: [col('buyLink', 'Link')],
      selection: { bulk: [{ label: 'Delete All', endpoint: CheckBoxDelete, payload: (ids) => ({ deleteData: ids }), confirm: 'Are you sure you want to remove these' }] },
    })
    const [deleteAll] = model.bulk ?? []
    expect(deleteAll?.label).toBe('Delete All')
    expectCall(deleteAll?.request(['a', 'b', 'c']), 'CheckBoxDelete', { deleteData: ['a', 'b', 'c'] })
  })

  it('the edit dialog starts from the row and saves through the edit call, back on the list', () => {
    const model = listModel({
      title: 'Buy List',
      route: '/buy_list',
      endpoint: ListBuyLink,
      columns: [col('buyLink', 'Buy Link')],
      editDialog: {
        title: 'Edit List',
        endpoint: editBuylink,
        fields: [url('buyLink', 'Title'), number('preference', 'Preference')],
        values: (row) => ({ _id: row._id, buyLink: row.buyLink, preference: row.preference }),
      },
    })
    expect(model.editDialog?.form.title).toBe('Edit List')
    expect(model.editDialog?.form.endpoint.name).toBe('editBuylink')
    expect(model.editDialog?.form.done).toBe('/buy_list')
    expect(model.editDialog?.values(link)).toEqual({ _id: 'l1', buyLink: 'https://example.com/buy', preference: 2 })
  })
})

describe('definitions the types cannot refuse', () => {
  it('refuses a low-priority column without a view modal to fold into', () => {
    expect(() => listModel({ title: 'Leads', endpoint: ListBuyLink, columns: [low(col('buyLink', 'Link'))] })).toThrow(/needs a view modal/)
    expect(() =>
      listModel({ title: 'Leads', endpoint: ListBuyLink, columns: [low(col('buyLink', 'Link'))], view: { title: 'Link', fields: [field('buyLink', 'Link')] } }),
    ).not.toThrow()
  })

  it('refuses an edit dialog without the list route, and an edit page together with an edit dialog', () => {
    const editDialog = {
      title: 'Edit List',
      endpoint: editBuylink,
      fields: [url('buyLink', 'Title')],
      values: (row: typeof link) => ({ _id: row._id, buyLink: row.buyLink, preference: row.preference }),
    }
    expect(() => listModel({ title: 'Buy List', endpoint: ListBuyLink, columns: [], editDialog })).toThrow(/needs the list's route/)
    expect(() => listModel({ title: 'Buy List', route: '/buy_list', endpoint: ListBuyLink, columns: [], edit: '/edit-category', editDialog })).toThrow(/not both/)
  })

  it('refuses two columns of one name, or a name with a comma: the column choice could not tell them apart', () => {
    expect(() => listModel({ title: 'Buy List', endpoint: ListBuyLink, columns: [col('buyLink', 'Link'), col('buyLink', 'Link again')] })).toThrow(/"buyLink" is not a unique name/)
    expect(() => listModel({ title: 'Buy List', endpoint: ListBuyLink, columns: [{ header: 'Link, shortened', cell: (row: typeof link) => row.buyLink }] })).toThrow(/without commas/)
    expect(() => listModel({ title: 'Buy List', endpoint: ListBuyLink, columns: [col('buyLink', 'Link'), { header: 'Buy Link', cell: (row: typeof link) => row.buyLink }] })).not.toThrow()
  })
})
